package textedit

import (
	"fmt"
	"github.com/hands-dev/hands/internal/benchmem"
	"strings"
	"sync"
	"testing"
)

// big100MB returns a text of 100 MiB of numbered lines with one unique line
// in the middle.
var big100MB = sync.OnceValue(func() string {
	const size = 100 << 20
	var sb strings.Builder
	sb.Grow(size + 100)
	for i := 0; sb.Len() < size; i++ {
		if i == 900_000 {
			sb.WriteString("\tunique := computeTheAnswer(42)\n")
			continue
		}
		fmt.Fprintf(&sb, "%08d lorem ipsum dolor sit amet, consectetur adipiscing elit\n", i)
	}
	return sb.String()
})

var bigEdit = Edit{Old: "unique := computeTheAnswer(42)", New: "unique := computeTheAnswer(43)"}

// BenchmarkApply100MB replaces one unique string in a 100 MiB text. The
// text itself (100 MiB) is live throughout and counts in peak-heap-MiB.
func BenchmarkApply100MB(b *testing.B) {
	text := big100MB()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	stop := benchmem.Peak(b)
	for b.Loop() {
		res, err := Apply(text, bigEdit)
		if err != nil || res.Lines[0] != 900_001 {
			b.Fatal(err, res.Lines)
		}
	}
	stop()
}

// BenchmarkEditFile100MB is the edit tool's whole path on a 100 MiB CRLF
// file: decode, replace, encode, diff and summary.
func BenchmarkEditFile100MB(b *testing.B) {
	file := []byte(strings.ReplaceAll(big100MB(), "\n", "\r\n"))
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	stop := benchmem.Peak(b)
	for b.Loop() {
		text, enc, err := Decode(file)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Apply(text, bigEdit)
		if err != nil {
			b.Fatal(err)
		}
		out, err := Encode(res.Text, enc)
		if err != nil || len(out) != len(file) {
			b.Fatal(err)
		}
		d := Diff("big.txt", text, res.Text, 3)
		if s := Summarize(d, 20); !strings.Contains(s, "+\tunique := computeTheAnswer(43)") {
			b.Fatalf("diff: %s", s)
		}
	}
	stop()
}

// BenchmarkDiff100MB diffs two 100 MiB texts that differ in one line.
func BenchmarkDiff100MB(b *testing.B) {
	a := big100MB()
	res, err := Apply(a, bigEdit)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(a)))
	b.ReportAllocs()
	stop := benchmem.Peak(b)
	for b.Loop() {
		if d := Diff("big.txt", a, res.Text, 3); len(d) > 1000 {
			b.Fatalf("diff too long: %d bytes", len(d))
		}
	}
	stop()
}

// BenchmarkApplyNotFound100MB is the failure path: no exact match, every
// normalisation tried, then the hints.
func BenchmarkApplyNotFound100MB(b *testing.B) {
	text := big100MB()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	stop := benchmem.Peak(b)
	for b.Loop() {
		if _, err := Apply(text, Edit{Old: "unique := computeTheAnswer(44)", New: "x"}); err == nil {
			b.Fatal("found")
		}
	}
	stop()
}
