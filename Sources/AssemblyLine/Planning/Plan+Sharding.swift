package import ConfigFormat

extension Plan {
    /// Files of one set of Assembly fields, in plan order: what ``init(shardingGroups:limits:)`` cuts without mixing two such sets.
    package typealias FieldGroup = (fields: [String: JSONValue], files: [PlannedFile])

    /// Cuts files, already in plan order, into shards filled in that order within `limits`.
    ///
    /// A new shard starts when the next file would exceed the file count or the byte budget of the
    /// current one; a file larger than the byte budget is a shard of its own. The same files and
    /// limits always give the same shards. No files give no shards.
    package init(sharding files: [PlannedFile], limits: ShardLimits) {
        self.init(shardingGroups: [(fields: [:], files: files)], limits: limits)
    }

    /// Cuts each group's files, in order, into shards as ``init(sharding:limits:)`` does; a group starts a new shard, whose
    /// files carry its fields, so that no Assembly mixes inputs of two sets of fields.
    package init(shardingGroups groups: [FieldGroup], limits: ShardLimits) {
        var shards: [Shard] = []
        for group in groups {
            var current: [PlannedFile] = []
            var currentBytes: Int64 = 0
            for file in group.files {
                if !limits.admits(size: file.size, intoShardOf: current.count, bytes: currentBytes) {
                    shards.append(Shard(index: shards.count, files: current, fields: group.fields))
                    current = []
                    currentBytes = 0
                }
                current.append(file)
                currentBytes += file.size
            }
            if !current.isEmpty {
                shards.append(Shard(index: shards.count, files: current, fields: group.fields))
            }
        }
        self.init(shards: shards)
    }

    /// The plan's files that `keep` takes (given each one's position in plan order), sharded again within `limits`, each
    /// with the fields of the shard it was in: shards of other fields stay apart. One pass, nothing compared but the fields
    /// of a shard with those of the group before it.
    package func resharded(limits: ShardLimits, keeping keep: (_ position: Int, _ file: PlannedFile) -> Bool) -> Plan {
        var groups: [FieldGroup] = []
        var position = 0
        for shard in shards {
            var joined = false
            for file in shard.files {
                defer { position += 1 }
                guard keep(position, file) else { continue }
                if !joined, groups.last?.fields != shard.fields { groups.append((fields: shard.fields, files: [])) }
                joined = true
                groups[groups.count - 1].files.append(file)
            }
        }
        return Plan(shardingGroups: groups, limits: limits)
    }
}
