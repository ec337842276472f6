// Package netfilter keeps shell commands off the network where network
// namespaces are unavailable: a seccomp filter, installed on the thread
// that starts a command and inherited by everything the command runs,
// fails socket(2) with EPERM for every address family but AF_UNIX, and
// io_uring_setup(2) (whose requests can open sockets too). It is the
// fallback of `--network off` when user namespaces are off (package
// isolate's network namespace is the first choice).
//
// What it does not cover: UNIX sockets stay usable (a local service
// listening on one, such as a container daemon, can still be reached, as
// Landlock permits); sockets passed in over a UNIX socket by a process
// outside; 32-bit programs lose socketcall(2) altogether.
//
// The filter is built with golang.org/x/net/bpf and installed with
// seccomp(2) through golang.org/x/sys/unix.
package netfilter
