//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package confine

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// With ResolveUnix, Landlock refuses connecting to a UNIX socket outside
// the writable trees and UnixSockets where the kernel has the right (ABI
// 9); below that ABI the ruleset must not ask for it (the kernel would
// refuse the whole ruleset) and the report says it is not enforced.
func TestResolveUnix(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, out := base+"/root", base+"/out"
	for _, d := range []string{root, out} {
		os.Mkdir(d, 0o755)
	}
	for _, p := range []string{root + "/own.sock", out + "/allowed.sock", out + "/denied.sock"} {
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("reached-" + filepath.Base(p)))
				c.Close()
			}
		}()
	}
	c := enforced(t, Policy{Roots: []string{root}, ResolveUnix: true, UnixSockets: []string{out + "/allowed.sock"}})
	rs, _ := c.Ruleset()
	rep := c.Report()
	var socketRules []string
	for _, r := range rs.Rules {
		if r.Access == accessResolveUnix {
			socketRules = append(socketRules, r.Path)
		}
	}
	if rep.ABI < resolveUnixABI {
		if rep.ResolveUnix || rs.Handled&accessResolveUnix != 0 || len(socketRules) > 0 || strings.Contains(rep.String(), "RESOLVE_UNIX") {
			t.Fatalf("Landlock ABI %d has no LANDLOCK_ACCESS_FS_RESOLVE_UNIX, yet the ruleset asks for it: %+v\n%s", rep.ABI, rs, rep)
		}
		t.Skipf("Landlock ABI %d: LANDLOCK_ACCESS_FS_RESOLVE_UNIX needs ABI %d, so connecting by path is not restricted here", rep.ABI, resolveUnixABI)
	}
	if !rep.ResolveUnix || rs.Handled&accessResolveUnix == 0 || !slices.Equal(socketRules, []string{out + "/allowed.sock"}) {
		t.Fatalf("ABI %d: the ruleset does not handle connecting by path: %+v", rep.ABI, rs)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to connect with")
	}
	got, _ := runConfined(t, c, `for s in `+root+`/own.sock `+out+`/allowed.sock `+out+`/denied.sock; do `+py+` -c 'import socket,sys
s=socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1]); print(s.recv(30).decode())
except OSError as e:
    print("refused", e)' "$s"; done`)
	if !strings.Contains(got, "reached-own.sock") || !strings.Contains(got, "reached-allowed.sock") || strings.Contains(got, "reached-denied.sock") {
		t.Errorf("with LANDLOCK_ACCESS_FS_RESOLVE_UNIX, want the root's and the allowed socket reached and the other refused:\n%s", got)
	}
}
