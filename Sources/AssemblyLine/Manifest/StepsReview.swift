package import ConfigFormat

/// What `validate` says of a recipe's known steps beyond their form: a Robot this client does not know, no step that
/// takes the uploaded files, no step with results. Warnings, not errors: the service is the judge of its Robots.
package enum StepsReview {
    /// The Robots the official node SDK knows (its alphalib `types/robots`, transloadit/node-sdk at e9a722a, 2026-06-29).
    static let knownRobots: Set<String> = [
        "/ai/chat", "/assembly/savejson", "/audio/artwork", "/audio/concat", "/audio/encode", "/audio/loop", "/audio/merge", "/audio/split",
        "/audio/waveform", "/azure/import", "/azure/store", "/backblaze/import", "/backblaze/store", "/box/import", "/box/store",
        "/cloudfiles/import", "/cloudfiles/store", "/cloudflare/import", "/cloudflare/store", "/digitalocean/import", "/digitalocean/store",
        "/document/autorotate", "/document/convert", "/document/extract", "/document/merge", "/document/ocr", "/document/optimize",
        "/document/split", "/document/thumbs", "/dropbox/import", "/dropbox/store", "/edgly/deliver", "/file/compress", "/file/decompress",
        "/file/filter", "/file/hash", "/file/preview", "/file/read", "/file/serve", "/file/verify", "/file/virusscan", "/file/watermark",
        "/ftp/import", "/ftp/store", "/google/import", "/google/store", "/html/convert", "/http/import", "/image/bgremove",
        "/image/copyrightdetect", "/image/describe", "/image/enhance", "/image/facedetect", "/image/generate", "/image/merge", "/image/ocr",
        "/image/optimize", "/image/resize", "/image/upscale", "/mega/import", "/mega/store", "/meta/read", "/meta/write", "/minio/import",
        "/minio/store", "/progress/simulate", "/s3/import", "/s3/store", "/script/run", "/sftp/import", "/sftp/store", "/speech/transcribe",
        "/supabase/import", "/supabase/store", "/swift/import", "/swift/store", "/text/speak", "/text/translate", "/tigris/import",
        "/tigris/store", "/tlcdn/deliver", "/tus/store", "/upload/handle", "/video/adaptive", "/video/artwork", "/video/concat",
        "/video/encode", "/video/generate", "/video/merge", "/video/ondemand", "/video/split", "/video/subtitle", "/video/thumbs",
        "/vimeo/import", "/vimeo/store", "/wasabi/import", "/wasabi/store", "/youtube/store",
    ]

    /// The warnings about `steps` (a recipe's known steps), each naming the step; `place` names where they are (a file).
    package static func warnings(of steps: JSONValue, at place: String) -> [String] {
        guard let members = steps.objectValue else { return [] }
        let robots = ResultSelection.robots(of: steps)
        var warnings = robots.keys.sorted().compactMap { name -> String? in
            guard let robot = robots[name], !knownRobots.contains(robot) else { return nil }
            return "\(place): steps.\(name).robot: \(robot) is no Robot this client knows; the service decides (a typo fails every Assembly)"
        }
        let uploads = Set([":original"] + robots.filter { $0.value == "/upload/handle" }.map(\.key))
        let used = members.values.map { Recipe.names(in: $0.objectValue?["use"]) }
        if !used.contains(where: { !uploads.isDisjoint(with: $0) }) {
            warnings.append("\(place): steps: no step uses the uploaded files (use: \":original\" or an /upload/handle step); "
                + "every file sent would be ignored")
        }
        let usedByOthers = Set(used.joined())
        let ends = members.filter { name, step in
            step.objectValue?["result"] == .bool(true) || (!usedByOthers.contains(name) && robots[name] != "/upload/handle")
        }
        if ends.isEmpty {
            warnings.append("\(place): steps: no step has results (result: true, or used by no other step); a night would make nothing")
        }
        return warnings
    }
}
