package match

// indexPair returns the smallest i such that buf[i] is a1 or a2 and
// buf[i+d] is c1 or c2, or -1; d >= 0. It is written with SSE2, which
// every amd64 processor has.
//
//go:noescape
func indexPair(buf []byte, a1, a2, c1, c2 byte, d int) int
