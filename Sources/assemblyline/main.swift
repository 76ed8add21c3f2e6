import AssemblyLineCLI

await AssemblyLineTool.main()
