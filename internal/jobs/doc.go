// Package jobs runs shell commands for a session: in the foreground with a
// timeout, or in the background as jobs, each in a process group of its
// own, with its output kept in order and within bounds. It knows nothing
// of tools: the bash, task_output and task_kill tools are glue over a
// Manager.
//
// What it promises, on Linux:
//
//   - Each command runs as `bash -c WRAPPER bash COMMAND` from the
//     session's working directory, with stdin from /dev/null, in a new
//     session and process group (so it has no controlling terminal to
//     prompt on), with the environment of Config.Env (see BuildEnv: an
//     allow list, so the server's secrets never reach commands).
//   - The wrapper evals the command and writes the shell's final `pwd -P`
//     from an EXIT trap to a pipe the shell inherits on descriptor 9 (read
//     to its end, keeping the last line of at most 4 KiB: nothing in a
//     directory a command can write is ever opened by path, so no FIFO or
//     link planted there can hang or flood the server), so a `cd` carries to the next call
//     whatever the command's text (heredocs, trailing comments, `exit N`,
//     failures); the output is never parsed for it. A command that ends in
//     `exec` or clears the trap and exits keeps the old directory. When
//     the directory vanishes, the next call starts in the fallback
//     directory and says so.
//   - A foreground command's shell is started ahead: when a command ends,
//     the next one's shell is started in the directory it ended in and
//     waits, its pipes made, for the command, which comes in a memfd once
//     a line comes down a pipe (see warm). A call then costs no fork, exec
//     or shell start-up, most of a short command's time. The command finds
//     the shell as a new one would be (tested probe by probe); only the
//     shell's start time is earlier. A session keeps at most one such
//     shell, and it ends with the session or the server. Background jobs,
//     other directories, Options.Unconfined, commands over 64 KiB and
//     environments a shell reads at its start (BASH_ENV, ENV) start a new
//     shell; Config.NoWarm turns it off.
//   - On timeout, cancellation, Kill or Close the whole group gets SIGTERM,
//     then SIGKILL after Config.Grace. When the shell exits, whatever it
//     left in its group (`sleep 1000 &`) is killed too, so no process
//     outlives its call unless it was started with Start. The output pipes
//     are read until everyone holding them is gone; if a process that left
//     the group (setsid) holds them, the call gives up reading after
//     Config.Grace and a quarter of a second, and that process lives on.
//   - If the server dies, however (SIGKILL included), its commands die:
//     the shell has a parent-death signal tied to the locked OS thread that
//     started it and waits for it, and each Manager keeps one watchdog
//     shell, in a session of its own, that kills every live process group
//     when its stdin, a pipe from the server, reaches end of file. The
//     groups are listed in a memory file the server writes and the
//     watchdog reads only then, so a command never wakes it. A process that left the group (setsid) escapes both;
//     nothing short of cgroups would catch it.
//   - Output of any size, line length and bytes: each stream keeps its
//     first and last few hundred kilobytes in memory and, past that, goes
//     to a spill file in the session's temporary directory (at most
//     Config.FileLimit bytes). Results are Text: safe UTF-8 (invalid bytes
//     as \xNN), cut to Config.OutputLimit characters as head and tail, with
//     the file that holds the whole.
//   - stdout and stderr: with Config.MergeStreams they share one pipe and
//     Merged is in exact write order; otherwise each has its own pipe, each
//     is kept apart, and Merged is in the order the server read them. Two
//     pipes cannot order writes to the two streams made close together
//     (while the reader is behind, by up to a pipe's 64 KiB): those come
//     out grouped by stream. One pipe cannot tell the streams apart. So a
//     profile that shows merged output should set MergeStreams, one that
//     shows stdout and stderr apart should not.
//
// Exec runs one command outside any Manager (hook commands) with the same
// process-group handling: its own group, killed whole on timeout or
// cancellation, and what it leaves behind killed when it exits.
//
// On other Unix systems commands get their own session and group too, but
// no parent-death signal or watchdog, and the shell is reaped as soon as
// it exits. Elsewhere (Windows) signals reach the shell only, not what it
// started, and Exec returns ErrUnsupported: GroupsSupported says which.
package jobs
