// Package tool is the contract between Hands's tools and the hosts that run
// them: a Tool declared with typed input and output ([New]), its metadata
// ([Info]), the [Result] a call produces, the [Registry] that names tools, and
// the [Executor] that runs calls through the pipeline of seed 003:
// enabled → decode and schema check → permissions → validation → execution →
// result mapping.
//
// The package promises that a tool's failure, including a panic, becomes a
// Result the model can read, never a crash of the host; that results come back
// in call order; and that calls which are not concurrency-safe never overlap
// another call of the same batch or stream. It knows nothing of the built-in
// tools, of profiles or of MCP.
package tool
