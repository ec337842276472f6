// Package nsinit is the sandbox spawner's side of package isolate, and the
// raw Landlock calls package confine shares with it.
//
// It depends on the standard library alone, so that Go initialises it
// before the heavy packages of a program that links it (packages are
// initialised in import-path order once their imports are): when a
// process is started as the spawner, its init function sets the sandbox
// up and serves the session's commands until the server closes its
// socket, then exits, before the rest of the program (schema compilers,
// profile tables) is initialised. Any program that links Hands can
// therefore serve as the spawner; nothing needs to be called from main.
package nsinit
