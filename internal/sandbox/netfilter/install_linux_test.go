//go:build linux && (amd64 || arm64)

package netfilter

import (
	"net"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/testproc"
)

// runFiltered runs bash -c script from a locked thread with the filter on.
func runFiltered(t *testing.T, script string) (string, error) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("no seccomp here: %v", err)
	}
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := DenyNetworkThread(); err != nil {
			done <- result{nil, err}
			return
		}
		out, err := exec.Command("bash", "-c", script).CombinedOutput()
		done <- result{out, err}
	}()
	r := <-done
	return string(r.out), r.err
}

// Under the filter, a command reaches no TCP listener, even on loopback,
// and the listener sees no connection; UNIX sockets still work; the rest
// of the program's threads are not filtered.
func TestDenyNetworkThread(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	l, accepted := testproc.ListenTCP(t)
	port := l.Addr().(*net.TCPAddr).Port
	out, err := runFiltered(t, "echo hi > /dev/tcp/127.0.0.1/"+strconv.Itoa(port))
	if err == nil || !strings.Contains(out, "Operation not permitted") {
		t.Errorf("the command reached the listener: %v\n%s", err, out)
	}
	if py, perr := exec.LookPath("python3"); perr == nil {
		out, err := runFiltered(t, py+` -c 'import socket; a, b = socket.socketpair(socket.AF_UNIX); a.send(b"u"); print(b.recv(1).decode()); socket.socket(socket.AF_UNIX).close(); socket.socket(socket.AF_INET6)'`)
		if err == nil || !strings.HasPrefix(out, "u\n") || !strings.Contains(out, "PermissionError") {
			t.Errorf("UNIX sockets should work and AF_INET6 fail: %v\n%s", err, out)
		}
	}
	// This thread and the listener's are not filtered: the listener
	// still accepts, and the first connection it gets is this one, not
	// the command's.
	c, err := net.DialTimeout("tcp", l.Addr().String(), 10*time.Second)
	if err != nil {
		t.Fatalf("the test's own threads were filtered: %v", err)
	}
	defer c.Close()
	if first := <-accepted; first != c.LocalAddr().String() {
		t.Errorf("the listener accepted %s before the test's own connection %s: the command's", first, c.LocalAddr())
	}
}
