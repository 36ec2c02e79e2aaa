import Foundation
import XMLInput

/// One value of a Subsonic answer as both of its forms carry it: an XML attribute, a JSON scalar.
public enum SubsonicValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case flag(Bool)
}

/// An element of a Subsonic answer. The API has two forms of one tree: XML, where scalars are attributes
/// and children are elements (a list is the element repeated), and JSON, where scalars are keys, a child is
/// an object and a list is an array under the element's name. Building the tree once and writing it both
/// ways keeps the two forms from drifting apart.
public struct SubsonicElement: Sendable, Equatable {
    public enum Child: Sendable, Equatable {
        case one(SubsonicElement)
        case list([SubsonicElement])
        /// Scalars repeated (OpenSubsonic's `versions`): `<versions>1</versions>` in XML, `[1]` in JSON.
        case values([SubsonicValue])
    }

    public private(set) var attributes: [(String, SubsonicValue)] = []
    public private(set) var children: [(String, Child)] = []

    public init() {}

    public init(_ attributes: KeyValuePairs<String, SubsonicValue?>) {
        for (name, value) in attributes { self[name] = value }
    }

    /// Sets an attribute; nil leaves it out (the API omits what is unknown rather than sending null).
    public subscript(name: String) -> SubsonicValue? {
        get { attributes.first { $0.0 == name }?.1 }
        set {
            attributes.removeAll { $0.0 == name }
            if let newValue { attributes.append((name, newValue)) }
        }
    }

    public mutating func add(_ name: String, _ child: Child) { children.append((name, child)) }

    public func adding(_ name: String, _ child: Child) -> SubsonicElement {
        var copy = self
        copy.add(name, child)
        return copy
    }

    public static func == (lhs: SubsonicElement, rhs: SubsonicElement) -> Bool {
        lhs.attributes.elementsEqual(rhs.attributes) { $0.0 == $1.0 && $0.1 == $1.1 }
            && lhs.children.elementsEqual(rhs.children) { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

extension SubsonicValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .flag(value) }

}

// MARK: JSON

extension SubsonicElement: Encodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in attributes { try container.encode(value, forKey: Key(name)) }
        for (name, child) in children {
            switch child {
            case .one(let element): try container.encode(element, forKey: Key(name))
            case .list(let elements): try container.encode(elements, forKey: Key(name))
            case .values(let values): try container.encode(values, forKey: Key(name))
            }
        }
    }
}

extension SubsonicValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .flag(let flag): try container.encode(flag)
        }
    }
}

// MARK: XML

extension SubsonicElement {
    /// The element as XML, named `name`; `namespace` goes on the root only.
    func xml(named name: String, namespace: String? = nil, into out: inout String) {
        out += "<" + name
        if let namespace { out += " xmlns=\"\(namespace)\"" }
        for (attribute, value) in attributes { out += " \(attribute)=\"\(XMLText.escaped(value.xmlText))\"" }
        guard !children.isEmpty else { out += "/>"; return }
        out += ">"
        for (childName, child) in children {
            switch child {
            case .one(let element): element.xml(named: childName, into: &out)
            case .list(let elements): for element in elements { element.xml(named: childName, into: &out) }
            case .values(let values): for value in values { out += "<\(childName)>\(XMLText.escaped(value.xmlText))</\(childName)>" }
            }
        }
        out += "</\(name)>"
    }
}

extension SubsonicValue {
    var xmlText: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .flag(let flag): flag ? "true" : "false"
        }
    }
}
