extension Manifest {
    /// The planner of the manifest's inputs and shard limits: what `plan` shows is what `run` sends.
    package var planner: Planner {
        Planner(include: inputs.include, exclude: inputs.exclude, base: inputs.base, limits: shards)
    }
}
