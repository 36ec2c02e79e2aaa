import StreamInput

/// Answers to the SRV query that finds radio-browser.info's servers: any datagram gives records
/// or an error, within the record bound.
func fuzzDNSSRV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let packet = Array(UnsafeBufferPointer(start: data, count: size))
    guard let records = try? DNSMessage.serviceRecords(in: packet, question: "_api._tcp.radio-browser.info") else { return 0 }
    precondition(records.count <= 64, "\(records.count) records kept")
    return 0
}
