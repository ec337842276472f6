// Package nsinit is the sandbox helper's side of package isolate, and the
// raw Landlock calls package confine shares with it.
//
// It depends on the standard library alone, so that Go initialises it
// before the heavy packages of a program that links it (packages are
// initialised in import-path order once their imports are): when a
// process is started as the helper, its init function sets the sandbox
// up, runs the command and exits before the rest of the program (schema
// compilers, profile tables) is initialised. That keeps the helper's cost
// per command near a small Go program's. Any program that links Hands can
// therefore serve as the helper; nothing needs to be called from main.
package nsinit
