import AssemblyLine
import ConfigFormat

/// The words of a shard event's detail, as a progress line or a JSON line's `message` gives them.
enum ShardEventText {
    /// The detail in words; empty when there is nothing to say beyond the event's kind.
    static func detail(_ detail: ShardEvent.Detail) -> String {
        switch detail {
        case .none: ""
        case let .intent(id): "Assembly \(id)"
        case let .assembly(id): id
        case let .reopened(id, .completed): "downloading the results of Assembly \(id)"
        case let .reopened(id, _): "polling Assembly \(id) again"
        case let .uploadedOverTus(totals):
            "\(CountText.of(totals.files, "file")) over tus, \(totals.bytesSent) bytes sent, \(totals.resumed) resumed"
        case .everyFileArrived: "every file was already there"
        case .completedBeforeRecorded: "every upload had arrived; the Assembly completed"
        case let .results(count, unreadable, unmatched):
            CountText.of(count, "result") + (unreadable == 0 ? "" : ", \(unreadable) unreadable entr\(unreadable == 1 ? "y" : "ies") left out")
                + (unmatched == 0 ? "" : ", \(unmatched) naming no file of the Assembly (recorded, not downloaded)")
        case let .downloads(count): CountText.of(count, "file")
        case let .retry(reason, number, of, wait): "\(reason) (try \(number) of \(of) in \(ConfigUnits.formatDuration(wait)))"
        case let .rateLimited(code, wait): "\(code): waiting \(ConfigUnits.formatDuration(wait))"
        case let .replaying(parent): "replaying Assembly \(parent) on its stored uploads"
        case let .replayRefused(parent, reason): "Assembly \(parent) cannot be replayed (\(reason)); uploading its files again"
        case let .askingAPIHost(unreachable, asking): "\(unreachable) does not answer; asking \(asking)"
        case let .failed(reason): reason.description
        case let .inputFailed(file, reason, othersLeft): "\(file): \(reason); \(othersLeft) other files go on in a new Assembly"
        case let .resultRefused(_, result, reason): "\(result): \(reason)"
        }
    }
}
