/// What the caller of a listing wants after each part handed to it (a bucket's page, a list's row): more, or no more.
package enum ListingDecision: Sendable, Hashable {
    case next
    case stop
}
