import ConfigFormat
import Foundation

extension ShardStateMachine {
    /// Starts polling the attempt's Assembly: at once, or after a wait when its status just came.
    mutating func startPolling(_ attempt: AttemptRecord?, statusIsFresh: Bool, _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        guard let attempt else { return fail(Self.noAttempt, facts) }
        guard let url = attempt.assemblyURL else {
            return fail(ShardFailure(code: .assemblyURLMissing, "the ledger has no status URL for the Assembly",
                                     retryable: true, needsNewAssembly: true), facts)
        }
        facts.running = attempt.assemblyID
        facts.runningSince = attempt.createdAt
        let deadline = (attempt.createdAt ?? attempt.startedAt).addingTimeInterval(settings.poll.timeout.timeInterval)
        let poll = Poll(url: url, fallback: assemblyURL(of: attempt), deadline: deadline, interval: settings.poll.interval)
        guard statusIsFresh else {
            state = .pacing(facts, poll)
            return Decision(.request(.paceStatus(url: url)))
        }
        return pause(poll, facts, now: now)
    }

    /// Asks for the status once the run's pace allows it, with an answer by the poll's deadline and never
    /// later than ``RequestDeadline/answer``: the time left is counted from `now`, when the turn came.
    mutating func ask(_ poll: Poll, _ facts: Facts, now: Date) -> Decision {
        state = .polling(facts, poll)
        let left = Duration.milliseconds(Int64(poll.deadline.timeIntervalSince(now) * 1_000))
        return Decision(.request(.pollStatus(url: poll.url, within: min(left, RequestDeadline.answer))))
    }

    /// Waits before the next status request: for the change stream's word while it is open (at most
    /// `poll.max_interval`, then a safety poll), else for the poll's interval.
    mutating func pause(_ poll: Poll, _ facts: Facts, now: Date) -> Decision {
        guard facts.streamIsLive else {
            state = .pausingPoll(facts, poll)
            return Decision(.request(.wait(poll.interval)))
        }
        let longest = max(poll.interval, settings.poll.maxInterval)
        var waiting = poll
        waiting.waitEnds = now.addingTimeInterval(longest.timeInterval)
        state = .pausingPoll(facts, waiting)
        return Decision(.request(.awaitChange(atMost: longest)))
    }

    /// The next status request, each pause half as long again as the last, up to `poll.max_interval`.
    mutating func nextPoll(after poll: Poll, _ facts: Facts) -> Decision {
        var next = poll
        next.interval = min(poll.interval * 3 / 2, settings.poll.maxInterval)
        next.waitEnds = nil
        state = .pacing(facts, next)
        return Decision(.request(.paceStatus(url: next.url)))
    }

    /// What the change stream's word leads to: a poll, or results to start early and the rest of the wait.
    mutating func awaited(_ wake: AssemblyUpdateWatch.Wake, pausing poll: Poll, _ facts: Facts, now: Date) -> Decision {
        var facts = facts
        switch wake {
        case .changed, .timedOut:
            return nextPoll(after: poll, facts)
        case let .streamEnded(reason):
            facts.streamIsLive = false
            return nextPoll(after: poll, facts).after([.noteStreamEnded(url: facts.stream ?? "", reason: reason)])
        case let .announced(announced):
            let files = Dictionary(facts.files.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
            let early = announced.compactMap { prefetchable($0.file, step: $0.step, files: files, &facts) }
            let commands: [Command] = early.isEmpty ? [] : [.prefetch(early)]
            guard let ends = poll.waitEnds, ends > now else { return nextPoll(after: poll, facts).after(commands) }
            state = .pausingPoll(facts, poll)
            return Decision(commands, .request(.awaitChange(atMost: .milliseconds(Int64(ends.timeIntervalSince(now) * 1_000)))))
        }
    }
}
