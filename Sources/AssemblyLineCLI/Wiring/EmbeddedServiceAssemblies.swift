import AssemblyLine
import Foundation

/// The Assemblies the embedded service stored in a state directory, a folder each (`assemblies/<id>/assembly.json`
/// under its data directory): what `prune` deletes beside the runs.
struct EmbeddedServiceAssemblies: EmbeddedAssemblies {
    func stored(in stateDirectory: String, lastChangedBefore cutoff: Date) -> [String] {
        let root = RunWiring.embeddedServiceDirectory(in: stateDirectory) + "/assemblies"
        let manager = FileManager.default
        return ((try? manager.contentsOfDirectory(atPath: root)) ?? []).sorted().compactMap { name in
            guard AssemblyID(name) != nil,
                  let modified = (try? manager.attributesOfItem(atPath: "\(root)/\(name)/assembly.json"))?[.modificationDate] as? Date,
                  modified < cutoff else { return nil }
            return "\(root)/\(name)"
        }
    }

    func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
