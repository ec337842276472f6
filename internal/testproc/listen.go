package testproc

import (
	"net"
	"testing"
)

// ListenTCP starts a TCP listener on loopback that sends the remote
// address of each connection it accepts on the channel it returns
// (buffered: four), then closes the connection; the listener closes when
// the test ends. Tests that check a command reached no listener dial it
// themselves and expect theirs to be the first.
func ListenTCP(t testing.TB) (net.Listener, <-chan string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	accepted := make(chan string, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	return l, accepted
}
