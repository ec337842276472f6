//go:build linux

package hands_test

import (
	"strings"
	"testing"

	"github.com/hands-dev/hands"
)

// Without namespaces (--sandbox landlock), the UNIX sockets outside the
// roots cannot be masked: the start-up warning and doctor say so, unless
// Landlock refuses them (ABI 9) or --unix-socket all says they are meant
// to be reachable.
func TestUnixSocketsUnmaskedSaySo(t *testing.T) {
	for _, c := range []struct {
		reachable []string
		warned    bool
	}{
		{nil, true},
		{[]string{"/run/docker.sock"}, true},
		{[]string{hands.UnixSocketsAll}, false},
	} {
		rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Sandbox: hands.SandboxLandlock, UnixSockets: c.reachable})
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		doctor := rt.Confinement()
		if strings.Contains(doctor, "LANDLOCK_ACCESS_FS_RESOLVE_UNIX, ABI") {
			t.Skipf("this kernel's Landlock refuses UNIX sockets by path: nothing to warn of\n%s", doctor)
		}
		warn := strings.Join(rt.SandboxWarnings(), "\n")
		if got := strings.Contains(warn, "masking the UNIX sockets outside the roots (a Docker socket, an ssh-agent, D-Bus): commands can reach them"); got != c.warned {
			t.Errorf("reachable %q: warned of the sockets %v, want %v: %q", c.reachable, got, c.warned, warn)
		}
		line := "not enforced: UNIX sockets outside the roots stay reachable by path"
		if !c.warned {
			line = "UNIX sockets outside the roots: ALL reachable (--unix-socket all)"
		}
		if !strings.Contains(doctor, line) {
			t.Errorf("reachable %q: doctor lacks %q:\n%s", c.reachable, line, doctor)
		}
	}
}
