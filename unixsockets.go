package hands

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/internal/sandbox/isolate"
)

// UnixSocketsAll, as an entry of Options.UnixSockets, leaves every
// path-based UNIX socket reachable, as the host's network is.
const UnixSocketsAll = isolate.AllUnixSockets

// masksUnixSockets reports whether commands are to be kept from the UNIX
// sockets outside the roots: unless Options.UnixSockets says all.
func (r *Runtime) masksUnixSockets() bool {
	return !slices.Contains(r.opts.UnixSockets, UnixSocketsAll)
}

// reachableSockets says which sockets outside the roots --unix-socket
// leaves reachable, for doctor.
func (r *Runtime) reachableSockets() string {
	var list []string
	for _, p := range r.isolator(r.tmp.path).ReachableSockets() {
		if strings.HasSuffix(p, "/") {
			p += " (every socket below)"
		}
		list = append(list, p)
	}
	if len(list) == 0 {
		return "no other (--unix-socket PATH leaves one reachable)"
	}
	return "--unix-socket " + strings.Join(list, ", ")
}

// unixSocketLines are doctor's lines on the UNIX sockets outside the
// roots: masked is whether the namespaces that mask them are in force.
func (r *Runtime) unixSocketLines(masked bool) string {
	var b strings.Builder
	switch {
	case !r.masksUnixSockets():
		b.WriteString("  UNIX sockets outside the roots: ALL reachable (--unix-socket all): a Docker socket (and through it, everything), an ssh-agent, a gpg-agent, D-Bus, systemd\n")
	case masked:
		b.WriteString("  UNIX sockets outside the roots: masked in every network mode (what /run, /var/run and the runtime directory hold, X11's, tmux's and agents' socket directories in /tmp, the sockets the environment names, Docker Desktop's, Colima's and Lima's, every socket bound when a command starts)\n")
		fmt.Fprintf(&b, "  UNIX sockets reachable: those in the roots and the session's temporary directory; outside, %s\n", r.reachableSockets())
		for _, p := range r.isolator(r.tmp.path).ReachableSockets() {
			for _, m := range r.masks() {
				if m, err := filepath.EvalSymlinks(m); err == nil && (p == m || strings.HasPrefix(p, m+"/")) {
					fmt.Fprintf(&b, "    NOT reachable all the same: %s lies in %s, which is masked (a secret or --deny-read path)\n", p, m)
				}
			}
		}
		if now := r.isolator(r.tmp.path).SocketMasks(); len(now) > 0 {
			more := ""
			if len(now) > 12 {
				now, more = now[:12], fmt.Sprintf(", and %d more", len(now)-12)
			}
			fmt.Fprintf(&b, "    masked for a command started now: %s%s\n", strings.Join(now, ", "), more)
		}
	default:
		ll := r.confinePolicy(r.tmp.path)
		if rep := confine.Status(ll); rep.ResolveUnix {
			fmt.Fprintf(&b, "  UNIX sockets outside the roots: not masked (no namespaces), but Landlock refuses connecting to them by path (LANDLOCK_ACCESS_FS_RESOLVE_UNIX, ABI %d); reachable: those in the roots and the session's temporary directory; outside, %s\n", rep.ABI, r.reachableSockets())
		} else {
			fmt.Fprintf(&b, "  not enforced: UNIX sockets outside the roots stay reachable by path (a Docker socket, an ssh-agent, D-Bus, X11): masking them needs the namespaces, Landlock refuses them only from ABI 9 (LANDLOCK_ACCESS_FS_RESOLVE_UNIX; %s), and seccomp cannot see a connect's address\n", abiSays(rep))
		}
	}
	return b.String()
}

// unixSocketsOpen says, for the start-up warning, that the UNIX sockets
// outside the roots stay reachable although the options mask them: no
// namespaces mask them and Landlock (rep) does not refuse them. Empty
// when they are kept from commands, or meant to be reachable.
func (r *Runtime) unixSocketsOpen(rep confine.Report) string {
	if !r.masksUnixSockets() || rep.ResolveUnix {
		return ""
	}
	if r.wantsNamespaces() {
		if probe, _ := r.sandboxState(); probe.Namespaces {
			return ""
		}
	}
	return fmt.Sprintf("masking the UNIX sockets outside the roots (a Docker socket, an ssh-agent, D-Bus): commands can reach them, since that needs the namespaces or Landlock ABI 9 (%s); --unix-socket all says they are meant to be reachable", abiSays(rep))
}

// abiSays names the Landlock the kernel has.
func abiSays(rep confine.Report) string {
	if rep.ABI == 0 {
		return "the kernel has no Landlock"
	}
	return fmt.Sprintf("the kernel has ABI %d", rep.ABI)
}
