// Package confine restricts what shell commands may touch, and holds the
// command policies that belong to the sandbox rather than to a tool.
//
// # Landlock
//
// On Linux a [Confiner] confines commands with Landlock (kernel 5.13 and
// later). A confined command may:
//
//   - write (create, delete, rename, truncate, make directories) only inside
//     the policy's roots, its temporary directory and its extra writable
//     trees, and write to a short list of devices (/dev/null, /dev/zero,
//     /dev/full, /dev/random, /dev/urandom, /dev/tty, /dev/ptmx, /dev/pts);
//   - read and execute everything else, except the paths of the deny list that
//     Landlock can express (see below); directory listings stay allowed
//     everywhere, so a denied directory's names can be listed but none of its
//     files read.
//
// Landlock is an allow list: a rule grants rights on a whole file hierarchy,
// and there is no rule that takes rights away. "Read everything except P" is
// therefore built by granting read on every sibling of P and of each of its
// ancestors instead of on "/". That works for a denied path outside the
// writable trees (~/.ssh, ~/.aws, a credentials file): nothing there can
// change during the command. It cannot work for a denied path inside a root:
// the root itself must be granted, or files the command creates in it could
// not be read back, and a grant on the root covers everything beneath it. Such
// entries (and relative, gitignore-style patterns such as ".env" or
// "**/*.pem", which only make sense inside the roots) are reported as not
// enforced; the file tools still refuse them. Report says which is which.
//
// Not restricted: the network, ioctl on devices, signals and abstract UNIX
// sockets (Landlock can scope the last three; commands legitimately need
// them), and paths reached through a file descriptor inherited from the
// server (the server passes only pipes and /dev/null).
//
// Where the kernel lacks Landlock, or it is switched off with
// [Policy.Disabled], commands run unconfined and [Report] says so; confinement
// is best effort, never a reason for a command to fail to start.
//
// # Why a locked thread, not the whole process
//
// The server itself must stay unconfined, and go-landlock's RestrictPaths
// applies to every thread of the process. Landlock domains are per thread and
// are inherited by a child at fork, so [Confiner.RestrictThread] restricts only
// the calling OS thread: the caller locks its goroutine to its thread
// (runtime.LockOSThread), calls RestrictThread, starts the command from that
// same goroutine (Go forks on the calling thread) and never unlocks the
// thread, so the tainted thread exits with the goroutine. The Go runtime
// never clones a new thread from a locked one (it asks its template thread
// instead), so the restriction cannot leak into the server's other threads.
// This needs no hook in main(), so it works for library users as well, which
// is why it was chosen over re-executing /proc/self/exe with a marker. The
// package jobs does all of this when its Config.Confine is set to
// RestrictThread.
//
// The raw Landlock system calls are made with the standard syscall package,
// in package nsinit, which the sandbox helper of package isolate shares.
// go-landlock's high-level API restricts every thread of the process, which
// would confine the server itself; its low-level package has the thread-level
// calls, but the same package links libcap's psx (for its all-threads
// variant), which with cgo wraps pthread_create for the whole binary. Three
// system calls on one thread do not justify that, so they are made here.
//
// # Command substitution
//
// [HasCommandSubstitution] is the gemini profile's rule that a command may not
// use $(...), backticks or process substitution, decided on the parsed command
// (mvdan.cc/sh/v3/syntax), not on its text.
package confine
