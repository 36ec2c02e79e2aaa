import ArgumentParser
import Engine
import Foundation
import RadioModel
import Recording
import Scheduling
import SharedStore

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What the running daemon is doing: active recordings, the next episodes, recent failures.",
        discussion: """
        Asks `onair daemon` over its control socket (in the data directory). Each active recording shows \
        its window, how much is recorded (time and size), the current title and gaps.

        Examples:
          onair status
          onair status --json

        With --database (or ONAIR_DATABASE_URL), the daemons sharing that database instead: each one's \
        heartbeat and load (stations leased / --max-streams), and every station's lease.

        Exit codes: 0 success; 1 no daemon is running (or its answer was not understood); 3 the shared \
        database cannot be reached.
        """
    )

    @Flag(help: "Print the daemon's answer as one JSON object: pid, active, next, recentFailures, retention.")
    var json = false

    @OptionGroup var database: SharedDatabaseOption

    func run() throws {
        try reportingFailures {
            if let shared = try database.open() { return try showCluster(shared) }
            let (status, answer) = try ControlClient(dataDirectory: CatalogueAccess.paths.data)
                .send(ControlRequest(.status), expecting: DaemonStatus.self)
            if json {
                FileHandle.standardOutput.write(answer + Data("\n".utf8))
                return
            }
            print("onair daemon, pid \(status.pid), running since \(ScheduleTimes.utc(status.startedAt)); \(status.rules) rules")
            print("\nRecording now:")
            if status.active.isEmpty { print("  nothing") }
            let rows = status.active.map { active in
                ["  \(active.episode)", active.station, active.programme ?? "", active.state, ClockText.of(active.elapsed),
                 RecordingReporter.size(active.bytes), "until " + ScheduleTimes.utc(active.windowEnd), active.title ?? "",
                 active.gaps > 0 ? "\(active.gaps) gaps" : "", active.late ? "late" : ""]
            }
            if !rows.isEmpty { print(TextTable.render(rows, maxWidths: [nil, 30, 24])) }
            print("\nNext:")
            if status.next.isEmpty { print("  nothing scheduled") }
            for next in status.next {
                print("  rule \(next.rule)  \(next.station)  \(next.programme ?? "")  \(next.startLocal)")
            }
            if !status.recentFailures.isEmpty {
                print("\nRecent failures:")
                for episode in status.recentFailures {
                    print("  episode \(episode.id ?? 0)  \(episode.station)  \(ScheduleTimes.utc(episode.windowStart))  "
                          + "\(episode.status.rawValue): \(episode.reason ?? "")")
                }
            }
            let retention = status.retention
            print("\nRetention: " + (retention.minFree.map { "--min-free \(ByteSize(bytes: $0))" } ?? "no --min-free")
                  + (retention.freeBytes.map { ", \(ByteSize(bytes: $0)) free" } ?? ""))
            for deletion in retention.lastDeletions {
                print("  \(ScheduleTimes.utc(deletion.at))  \(deletion.logLine)")
            }
        }
    }

    private func showCluster(_ shared: SharedDatabase) throws {
        let cluster: ClusterStatus
        do {
            cluster = try PostgresEpisodeLeases.cluster(in: shared)
        } catch {
            throw CommandFailure(message: "cluster: \(error)", exitCode: ExitStatus.configuration)
        }
        if json { return Console.json(cluster) }
        print("Daemons sharing \(cluster.database):")
        if cluster.daemons.isEmpty { print("  none yet") }
        let daemons = cluster.daemons.map { daemon in
            ["  \(daemon.name)", daemon.instance.isEmpty ? "" : "instance \(daemon.instance)", daemon.host, "pid \(daemon.pid)",
             "\(daemon.leases)/\(daemon.maxStreams) stations",
             String(format: "heartbeat %.0f s ago", daemon.heartbeatAge)]
        }
        if !daemons.isEmpty { print(TextTable.render(daemons)) }
        print("\nLeases:")
        if cluster.leases.isEmpty { print("  none") }
        let leases = cluster.leases.map { lease in
            ["  \(lease.station)", lease.instance.isEmpty ? lease.daemon : "\(lease.daemon) (\(lease.instance))", "epoch \(lease.epoch)",
             lease.expiresIn > 0 ? String(format: "expires in %.0f s", lease.expiresIn) : String(format: "expired %.0f s ago", -lease.expiresIn)]
        }
        if !leases.isEmpty { print(TextTable.render(leases, maxWidths: [40])) }
    }
}
