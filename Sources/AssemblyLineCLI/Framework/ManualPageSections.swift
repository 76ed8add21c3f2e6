/// The manual page's prose sections that no command's help holds: the files the tool keeps, the environment it
/// reads, and examples; each entry a term and what it means, as `.TP` paragraphs.
enum ManualPageSections {
    /// An entry of a section: the term in bold, then its text.
    typealias Entry = (term: String, text: String)

    static let files: [Entry] = [
        ("STATE_DIR/", "A manifest's state directory: its state_dir (default runs, beside the manifest; may name {partition}), "
            + "or --state-dir. A command given neither a manifest nor --state-dir reads ./runs, or for a run ID the directory "
            + "the run index names."),
        ("STATE_DIR/ledger.sqlite", "The run ledger (SQLite): every run, shard, attempt, file and result, and the done and known bad "
            + "indexes the next night relies on. runs, report and check never create or change it."),
        ("STATE_DIR/locks/*.lock", "The lock of a manifest's runs (flock; the holder's PID and run ID inside): a second run of the "
            + "manifest exits 75. A run also locks its output.dir (flock on the directory), and serve its --data-dir."),
        ("STATE_DIR/output/", "Where the results go unless output.dir says otherwise, named by output.layout."),
        ("STATE_DIR/embedded-service/", "The data of the embedded service (endpoint: embedded): its Assemblies with their results, "
            + "and the port it last listened on, so that resume finds the URLs in the ledger. prune removes its old Assemblies."),
        ("$XDG_STATE_HOME/assemblyline/runs.tsv", "The run index: RUN_ID<TAB>STATE_DIR a line, appended by every run, so that a run ID "
            + "is found from any directory. Else ~/.local/state/assemblyline/runs.tsv when HOME exists, else "
            + "$TMPDIR/assemblyline-UID/runs.tsv (/tmp without TMPDIR)."),
        ("./serve-data/", "serve's data directory (--data-dir): Assemblies, uploads, results, and the generated auth-key and "
            + "auth-secret (mode 0600) when no --key is given."),
    ]

    static let environment: [Entry] = [
        ("XDG_STATE_HOME, HOME, TMPDIR", "Where the run index is (FILES)."),
        ("${NAME} in a manifest or a policy", "Any value may name a variable; an unset one is an error (exit 65). $${ is a literal ${."),
        ("the variables a file names", "A manifest's signer.secret_env, signer.token_env and monitoring.ping_url_env, a policy's "
            + "secret_env, and serve --secret-env: each names the variable that holds the secret, the token or the URL "
            + "(an unset secret or token exits 78; an unset ping URL is a warning)."),
        ("JOB_COMPLETION_INDEX", "--partition auto: the part, in a Kubernetes Indexed Job."),
        ("SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP, SLURM_ARRAY_TASK_COUNT",
         "--partition auto: the part (and the number of parts without auto/N), in a Slurm job array."),
        ("https_proxy, http_proxy, all_proxy, no_proxy", "Read by libcurl, as curl reads them, for the endpoint, the signer and the downloads."),
        ("ASSEMBLYLINE_KILL_AT", "Debug builds only, for crash tests: POINT[:N] kills the process at a pipeline checkpoint. "
            + "A release build ignores it."),
    ]

    static let examples: [Entry] = [
        ("assemblyline validate nightly.yaml", "Check a manifest; every error with file:line:column."),
        ("assemblyline plan nightly.yaml", "What a run would send and skip, and why; writes nothing."),
        ("assemblyline run /etc/assemblyline/nightly.yaml --quiet", "From cron: nothing is printed when every file is done, "
            + "else the failures, the run ID and a summary."),
        ("assemblyline runs --state failed --since 24h", "What failed last night."),
        ("assemblyline report latest --failed", "The failed files of the newest run, each with its error code and reason."),
        ("assemblyline resume latest", "Finish the newest run: its unfinished shards, and its failed ones again."),
        ("assemblyline report latest --format html --output night.html", "One self-contained page of the run, for a browser."),
        ("assemblyline check nightly.yaml", "The outputs missing or changed since they were made; exit 1 when any."),
        ("assemblyline prune --older-than 90d --manifest nightly.yaml", "Old runs out of the ledger."),
    ]
}
