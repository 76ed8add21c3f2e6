package import Foundation

/// An Assembly that failed while it executed, after its uploads were stored: what a replay of it needs to know.
package struct FailedAssembly: Sendable, Hashable {
    package var id: AssemblyID
    /// When the service accepted it: a replay is tried within ``ReplayRule/window`` from then.
    package var createdAt: Date

    package init(id: AssemblyID, createdAt: Date) {
        self.id = id
        self.createdAt = createdAt
    }
}
