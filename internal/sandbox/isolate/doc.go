// Package isolate runs shell commands in Linux namespaces: the second
// layer of the sandbox, under Landlock (package confine).
//
// A session's commands go through a [Spawner] (jobs.Config.Spawner): at
// the first command it starts the program again as the spawner (package
// nsinit), PID 1 of new user, mount, PID and IPC (and network)
// namespaces, set up once for the session as described below. Each
// command then costs the spawner a fork (a vfork) and an exec, from a
// thread it confined (Landlock, no_new_privs, no capability to regain on
// exec). The spawner
//
//   - starts each command in a UTS namespace of its own, leading a process
//     group of its own; the namespace tags every process the command
//     starts (none can leave it without capabilities, and nested user
//     namespaces, which would give them, are off: max_user_namespaces is 0
//     in the spawner's user namespace), so that when the command ends,
//     whatever it left, setsid processes included, is killed, while the
//     session's other commands run on;
//   - passes signals from the server on to every process of a command,
//     reaps the commands and gives the server each shell's wait status;
//   - catches every signal a command could send it (PID 1 of a namespace
//     gets only those it has a handler for) and is not dumpable, so no
//     command can stop it, trace it or read its /proc files; it dies with
//     the server (parent-death signal), and everything in its namespaces
//     with it; if it dies anyway, the next command starts a new one.
//
// The spawner (package nsinit, whose init function recognises the re-run
// and acts before the rest of the program is initialised, so every
// program linking this package can serve) starts in new user, mount, PID
// and IPC namespaces (and a network namespace for the "off" and "allow"
// network modes), with the server's uid and gid mapped to themselves, and:
//
//   - makes every mount private, takes copies of the writable trees (the
//     roots, the session's temporary directory, extra writable trees), makes
//     the whole system read-only in one recursive mount_setattr, and puts the
//     copies back: chmod, chown, utimes, xattrs and mknod outside them fail
//     with EROFS (mknod of devices fails with EPERM anywhere);
//   - covers each mask path with an empty read-only file or directory cloned
//     from a small tmpfs that is attached nowhere else; in every network
//     mode the masks also cover the path-based UNIX sockets outside the
//     writable trees but those Config.UnixSockets leaves reachable
//     (sockets.go), which a read-only mount does not keep a connect(2) from;
//   - mounts a /proc of the new PID namespace (the server is invisible: no
//     environ, no cmdline, nothing to signal), with /proc/sys,
//     /proc/sysrq-trigger, /proc/irq and /proc/bus read-only, and a private
//     /dev/shm;
//   - brings up loopback in a new network namespace and, in the "allow" mode,
//     forwards 127.0.0.1:3128 to the server's [Proxy] socket;
//   - applies Landlock (with signal and abstract-socket scoping where the ABI
//     has them) on the thread that starts the commands, which also forbids
//     any change of the mounts from them; sets no_new_privs; empties the
//     capability bounding, inheritable and ambient sets, so a command has no
//     capability even when the server runs as root;
//   - covers, before each command starts, what the masks cover then and
//     is not covered yet (a denied file that appeared, a socket bound
//     since): one mask step per command (masks.go).
//
// Mounts use the new mount API (open_tree, move_mount, fsopen, fsmount,
// mount_setattr: Linux 5.12 and later). [Spawner.Probe] starts a session's
// spawner ahead of its first command and reports whether its whole set-up
// works here; where it does not (no unprivileged user namespaces, an
// AppArmor restriction, no executable), the caller falls back to Landlock
// alone and says so.
//
// What the package does not do: limit resources (no cgroups), filter system
// calls (package netfilter does, for --network off, only where these
// namespaces are unavailable), or hide the roots' other files from the
// command.
package isolate
