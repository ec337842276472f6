package isolate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hands-dev/hands/internal/sandbox/confine"
	"github.com/hands-dev/hands/internal/sandbox/nsinit"
)

// Network is a network policy for commands.
type Network struct {
	// Mode is "on" (the host's network, the default), "off" (a network
	// namespace with loopback only) or "allow" (loopback only, plus an
	// HTTP and HTTPS proxy that admits the Allow domains).
	Mode string
	// Allow lists the domains the proxy admits: "example.com" matches
	// that host exactly, "*.example.com" any host below it.
	Allow []string
}

// ParseNetwork parses a --network value: on, off or allow=DOMAIN,….
func ParseNetwork(v string) (Network, error) {
	switch {
	case v == "" || v == "on":
		return Network{Mode: "on"}, nil
	case v == "off":
		return Network{Mode: "off"}, nil
	case strings.HasPrefix(v, "allow="):
		var list []string
		for d := range strings.SplitSeq(strings.TrimPrefix(v, "allow="), ",") {
			d = strings.ToLower(strings.TrimSpace(d))
			if d == "" {
				continue
			}
			if err := checkDomain(d); err != nil {
				return Network{}, err
			}
			list = append(list, d)
		}
		if len(list) == 0 {
			return Network{}, errors.New("network allow= lists no domain; give one or more, e.g. allow=github.com,*.golang.org, or use off")
		}
		return Network{Mode: "allow", Allow: list}, nil
	}
	return Network{}, fmt.Errorf("network %q: use on, off or allow=DOMAIN,…", v)
}

// checkDomain checks one entry of an allow list.
func checkDomain(d string) error {
	host := strings.TrimPrefix(d, "*.")
	if host == "" || strings.ContainsAny(host, "*/:@ ?#[]") || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") {
		return fmt.Errorf("network allow: %q is not a domain; write example.com or *.example.com", d)
	}
	return nil
}

// Config describes the sandbox of a session's commands.
type Config struct {
	// Helper is the executable re-run as the spawner; empty means this
	// one: every program that links this package can serve (package
	// nsinit).
	Helper string
	// Roots are the trees commands may write; TempDir, the session's
	// temporary directory, and Writable are writable too. Everything else
	// is mounted read-only.
	Roots    []string
	TempDir  string
	Writable []string
	// Mask lists the paths covered by an empty read-only file or
	// directory (secrets, denied paths); those that do not exist when a
	// command starts are skipped.
	Mask []string
	// MaskMatches, if set, is called as each command starts for more paths
	// to mask (the files in the roots a deny pattern matches).
	MaskMatches func() []string
	// UnixSockets lists the path-based UNIX sockets outside the writable
	// trees commands may still reach, in every network mode: a socket's
	// absolute path, or a directory ending in "/" for every socket below
	// it; AllUnixSockets leaves every one reachable. Every other is
	// masked (sockets.go).
	UnixSockets []string
	// Landlock is the Landlock policy applied inside, on top of the
	// namespaces; nil means none.
	Landlock *confine.Policy
	// Network is the network policy; for "allow", ProxySocket is the UNIX
	// socket of the proxy (see Proxy) the helper forwards to.
	Network     Network
	ProxySocket string
}

// An Isolator starts commands in namespaces. It is safe for concurrent use.
type Isolator struct {
	cfg    Config
	helper string
	err    error // why the helper cannot be used
	// sockets says where the UNIX sockets to mask are looked for.
	sockets socketSources
}

// New returns an Isolator for cfg.
func New(cfg Config) *Isolator {
	i := &Isolator{cfg: cfg, helper: cfg.Helper, sockets: hostSockets()}
	if i.helper == "" {
		if exe, err := os.Executable(); err != nil {
			i.err = fmt.Errorf("finding the running executable: %w", err)
		} else {
			i.helper = exe
		}
	}
	return i
}

// proxyPort is where commands find the proxy, on their own loopback.
const proxyPort = 3128

// spec builds the spawner's spec.
func (i *Isolator) spec() nsinit.Spec {
	c := i.cfg
	s := nsinit.Spec{}
	if c.Landlock != nil {
		if rs, ok := confine.New(*c.Landlock).Ruleset(); ok {
			s.Landlock = &rs
		}
	}
	for _, w := range append(append(slices.Clone(c.Roots), c.TempDir), c.Writable...) {
		if w == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(w); err == nil && !slices.Contains(s.Writable, r) {
			s.Writable = append(s.Writable, r)
		}
	}
	switch c.Network.Mode {
	case "off":
		s.NetNS = true
	case "allow":
		s.NetNS, s.Proxy, s.ProxyPort = true, c.ProxySocket, proxyPort
	}
	s.Masks = i.masks(s.Writable, s.NetNS)
	return s
}

// ProxyEnv returns the variables that point commands at the proxy, for
// the "allow" network mode; nil otherwise.
func (i *Isolator) ProxyEnv() []string {
	if i.cfg.Network.Mode != "allow" {
		return nil
	}
	u := fmt.Sprintf("http://127.0.0.1:%d", proxyPort)
	return []string{"HTTP_PROXY=" + u, "HTTPS_PROXY=" + u, "http_proxy=" + u, "https_proxy=" + u,
		"ALL_PROXY=" + u, "all_proxy=" + u, "NO_PROXY=", "no_proxy="}
}
