import AssemblyLine
import Digests
import Foundation
import SQLiteLedger
import TestSupport
import Testing

/// A recipe change (an edited Template file, other fields): the files done under the job's earlier recipe are made
/// again and the plan says how many, unless the operator accepts the change, which carries them over for good.
@Suite struct RecipeChangeTests {
    @Test func anEditedRecipeRemakesTheDoneFilesAndThePlanSaysHowManyAndSinceWhichRun() async throws {
        let harness = try SessionHarness()
        let first = try await harness.run()
        #expect(try await harness.session().forecast(force: false, checksums: false).recipeChange == nil, "the same recipe: nothing to say")

        try harness.writeManifest(recipe: "template: {id: copy, fields: {size: 2}}")
        try await harness.clock.sleep(for: .seconds(86_400))
        let forecast = try await harness.session().forecast(force: false, checksums: false)
        #expect(forecast.recipeChange?.run == first.runID && forecast.recipeChange?.accepted == false)
        #expect(forecast.recipeChange?.remade == 3 && forecast.incremental.plan.fileCount == 3 && forecast.incremental.skippedCount == 0)

        _ = try await harness.run()
        #expect(harness.service.created.count == 4, "two shards a night, each night: the edit made all three again")
        #expect(try await harness.session().forecast(force: false, checksums: false).recipeChange == nil, "the new recipe is the job's now")
    }

    @Test func anAcceptedChangeSendsNothingAndTheNextNightSkipsUnderTheNewRecipe() async throws {
        let harness = try SessionHarness()
        let first = try await harness.run()
        try FileManager.default.removeItem(atPath: "\(harness.outputDirectory)/b.txt")
        try harness.writeManifest(recipe: "template: {id: copy, fields: {size: 2}}")

        let planned = try await harness.session(acceptsRecipe: true).forecast(force: false, checksums: false)
        #expect(planned.recipeChange?.run == first.runID && planned.recipeChange?.accepted == true)
        #expect(planned.recipeChange?.carried == 2 && planned.recipeChange?.remade == 1, "b.txt's output is gone: made again")
        #expect(try await harness.session().forecast(force: false, checksums: false).recipeChange?.remade == 3, "a plan changes nothing")

        try await harness.clock.sleep(for: .seconds(86_400))
        let accepted = try await harness.run(acceptsRecipe: true)
        #expect(accepted.state == .finished && harness.service.created.count == 3, "one Assembly for b.txt")
        let next = try await harness.session().forecast(force: false, checksums: false)
        #expect(next.recipeChange == nil && next.incremental.skippedCount == 3 && next.incremental.plan.fileCount == 0)
    }

    @Test func aRunOfATemplateFileRecordsItsContentsHash() async throws {
        let harness = try SessionHarness()
        try harness.directory.write("t.json", #"{"name": "copy", "steps": {"copy": {"robot": "/file/filter", "use": ":original"}}}"#)
        try harness.writeManifest(recipe: "template: {id: copy, file: t.json}")
        let outcome = try await harness.run()
        let record = try await harness.ledger { try await $0.run(outcome.runID).record }
        guard case .template(let recipe) = try harness.manifest().recipe, let document = recipe.file?.document else {
            Issue.record("no Template file"); return
        }
        #expect(record.templateID == "copy")
        #expect(record.templateSHA256 == LibcryptoFileDigester().sha256Hex(of: document.canonicalContent))
        #expect(record.templateSHA256 == LibcryptoFileDigester().sha256Hex(of: #"{"steps":{"copy":{"robot":"/file/filter","use":":original"}}}"#))
    }
}
