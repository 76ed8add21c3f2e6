/// At most `limit` events in any window of `window`: a burst up to the budget at once, then each
/// further event when the oldest of the last `limit` leaves the window.
///
/// A value that hands out slots: ``reserve(at:)`` answers when the next event may happen and
/// counts it from then, so callers that wait for their slot keep the budget between them.
struct SlidingWindowBudget: Sendable {
    let limit: Int
    let window: Duration
    /// The slots of the last `limit` events (or fewer), oldest first; never decreasing.
    private var slots: [ContinuousClock.Instant] = []
    /// The position of the oldest slot in `slots` once it holds `limit` of them (a ring).
    private var oldest = 0

    init(limit: Int, window: Duration) {
        self.limit = max(limit, 1)
        self.window = window
        slots.reserveCapacity(self.limit)
    }

    /// The earliest instant from `now` on at which one more event keeps the budget; it is counted.
    mutating func reserve(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard slots.count == limit else {
            let slot = max(now, slots.last ?? now)
            slots.append(slot)
            return slot
        }
        let slot = max(now, slots[oldest] + window, slots[(oldest + limit - 1) % limit])
        slots[oldest] = slot
        oldest = (oldest + 1) % limit
        return slot
    }

    /// The earliest instant the last of `count` more events could go, were each to reserve its slot from `start` on
    /// as soon as it may; nothing is counted, and it takes the same time for any `count`.
    ///
    /// Past the slots held, event `i` (counting every slot, oldest first) goes at `max(start, slot[i - limit] + window)`:
    /// the last goes `r` windows after the slot `r × limit` before it, one of the slots held or of the burst still free.
    func lastSlot(ofNext count: Int, from start: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard count > 0 else { return start }
        let last = slots.count + count - 1
        let rounds = last < limit ? 0 : (last - limit) / limit + 1
        let index = last - rounds * limit
        let base = index < slots.count ? slots[(slots.count < limit ? index : (oldest + index) % limit)] : max(start, slots.last ?? start)
        guard rounds > 0 else { return max(start, base) }
        return max(start + window * (rounds - 1), base + window * rounds)
    }
}
