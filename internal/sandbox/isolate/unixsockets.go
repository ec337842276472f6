package isolate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// AllUnixSockets, as an entry of Config.UnixSockets, leaves every
// path-based UNIX socket reachable: no socket is masked.
const AllUnixSockets = "all"

// CheckUnixSockets checks a list of reachable sockets (--unix-socket): each
// entry is the absolute path of a socket, an absolute directory ending in
// "/" for every socket below it, or AllUnixSockets.
func CheckUnixSockets(list []string) error {
	for _, p := range list {
		if p == AllUnixSockets {
			continue
		}
		if !filepath.IsAbs(p) {
			return fmt.Errorf("unix-socket %q: give the absolute path of a socket (e.g. /run/docker.sock), a directory ending in / for every socket below it (e.g. /run/user/1000/), or all", p)
		}
	}
	return nil
}

// MasksUnixSockets reports whether commands are kept from the UNIX sockets
// outside the writable trees (sockets.go): always, unless the
// configuration leaves them all reachable.
func (i *Isolator) MasksUnixSockets() bool {
	return !slices.Contains(i.cfg.UnixSockets, AllUnixSockets)
}

// ReachableSockets lists, resolved, the sockets outside the writable trees
// that commands may still reach (Config.UnixSockets); a directory ends in
// "/". Nil when every one is reachable, or none is.
func (i *Isolator) ReachableSockets() []string {
	if !i.MasksUnixSockets() {
		return nil
	}
	var out []string
	for _, p := range i.cfg.UnixSockets {
		r := resolveSocketPath(p)
		if strings.HasSuffix(p, "/") && r != "/" {
			r += "/"
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// resolveSocketPath resolves p, a socket or a directory that may not exist
// yet: its links are followed as far as it exists.
func resolveSocketPath(p string) string {
	p = filepath.Clean(p)
	if r, ok := resolved(p); ok {
		return r
	}
	if p == "/" {
		return p
	}
	return filepath.Join(resolveSocketPath(filepath.Dir(p)), filepath.Base(p))
}

// systemKeep lists what the masks must leave alone whatever the policy,
// because the system needs it: the file /etc/resolv.conf leads to when it
// lies under /run (systemd-resolved's stub, NetworkManager's), so that
// commands with the network on still resolve names. It is no socket; the
// masks only go round it.
func systemKeep() []string {
	if r, ok := resolved("/etc/resolv.conf"); ok && r != "/etc/resolv.conf" {
		if st, err := os.Stat(r); err == nil && st.Mode().IsRegular() {
			return []string{r}
		}
	}
	return nil
}
