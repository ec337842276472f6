package match

import (
	"bytes"
	"testing"
)

func refIndexPair(buf []byte, a1, a2, c1, c2 byte, d int) int {
	for i := 0; i+d < len(buf); i++ {
		if (buf[i] == a1 || buf[i] == a2) && (buf[i+d] == c1 || buf[i+d] == c2) {
			return i
		}
	}
	return -1
}

func FuzzIndexPair(f *testing.F) {
	f.Add([]byte("hello func main world"), byte('m'), byte('M'), byte('n'), byte('N'), 3)
	f.Add(bytes.Repeat([]byte("ab"), 40), byte('a'), byte('a'), byte('b'), byte('b'), 1)
	f.Fuzz(func(t *testing.T, buf []byte, a1, a2, c1, c2 byte, d int) {
		if d < 0 || d > 100 {
			return
		}
		if got, want := indexPair(buf, a1, a2, c1, c2, d), refIndexPair(buf, a1, a2, c1, c2, d); got != want {
			t.Fatalf("indexPair(%q, %q, %q, %q, %q, %d) = %d, want %d", buf, a1, a2, c1, c2, d, got, want)
		}
	})
}

func TestIndexPairAllLengths(t *testing.T) {
	for n := 0; n < 80; n++ {
		for pos := 0; pos < n; pos++ {
			for d := 0; d < 5 && pos+d < n; d++ {
				buf := bytes.Repeat([]byte{'.'}, n)
				buf[pos], buf[pos+d] = 'x', 'y'
				if d == 0 {
					buf[pos] = 'x'
				}
				c := byte('y')
				if d == 0 {
					c = 'x'
				}
				if got, want := indexPair(buf, 'x', 'x', c, c, d), refIndexPair(buf, 'x', 'x', c, c, d); got != want {
					t.Fatalf("n=%d pos=%d d=%d: %d, want %d", n, pos, d, got, want)
				}
			}
		}
	}
}
