package tools

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hands-dev/hands/tool"
)

// recorder collects the reports a reporter sends.
type recorder struct{ got []tool.Progress }

func (r *recorder) env() *tool.Env {
	return &tool.Env{Progress: func(p tool.Progress) { r.got = append(r.got, p) }}
}

func (r *recorder) elapsed() []time.Duration {
	var out []time.Duration
	for _, p := range r.got {
		out = append(out, p.Elapsed)
	}
	return out
}

func counting(n *int) func(p *tool.Progress) {
	return func(p *tool.Progress) { *n++; p.Message = fmt.Sprint(*n) }
}

// TestReporterEvery250ms: a call reports at 250 ms, 500 ms, 750 ms and
// 1 s of (fake) time, never closer together, and once more when it ends.
func TestReporterEvery250ms(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		n := 0
		r := startProgress(t.Context(), rec.env(), 0, counting(&n))
		time.Sleep(1100 * time.Millisecond)
		r.finish(func(p *tool.Progress) { p.Message = "end" })
		want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond, time.Second, 1100 * time.Millisecond}
		if got := rec.elapsed(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reports at %v, want %v", got, want)
		}
		for i, p := range rec.got {
			if p.Done != (i == len(rec.got)-1) {
				t.Errorf("report %d: Done %v", i, p.Done)
			}
		}
		if last := rec.got[len(rec.got)-1]; last.Message != "end" {
			t.Errorf("last report %q, want the one finish makes", last.Message)
		}
		// Nothing is sent once finish has returned.
		time.Sleep(time.Second)
		if len(rec.got) != len(want) {
			t.Errorf("%d reports after finish", len(rec.got)-len(want))
		}
	})
}

// TestReporterSlowCallback: the next report comes 250 ms after the
// previous one was delivered, so a slow receiver is never flooded.
func TestReporterSlowCallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var at []time.Duration
		start := time.Now()
		env := &tool.Env{Progress: func(tool.Progress) {
			at = append(at, time.Since(start))
			time.Sleep(400 * time.Millisecond) // a slow client
		}}
		r := startProgress(t.Context(), env, 0, func(*tool.Progress) {})
		time.Sleep(2 * time.Second)
		r.finish(nil)
		for i := 1; i < len(at); i++ {
			if d := at[i] - at[i-1]; d < 250*time.Millisecond {
				t.Errorf("reports %d and %d only %s apart", i-1, i, d)
			}
		}
		if len(at) != 3 { // at 250 ms, 900 ms, 1550 ms
			t.Errorf("reports at %v", at)
		}
	})
}

// TestReporterSearchDelay: a search reports only once it has run for its
// delay; a quicker one sends nothing at all, not even a last report.
func TestReporterSearchDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		n := 0
		r := startProgress(t.Context(), rec.env(), 500*time.Millisecond, counting(&n))
		time.Sleep(400 * time.Millisecond)
		r.finish(counting(&n))
		if len(rec.got) != 0 || n != 0 {
			t.Fatalf("a 400 ms search reported %d times", len(rec.got))
		}

		r = startProgress(t.Context(), rec.env(), 500*time.Millisecond, counting(&n))
		time.Sleep(900 * time.Millisecond)
		r.finish(counting(&n))
		want := []time.Duration{500 * time.Millisecond, 750 * time.Millisecond, 900 * time.Millisecond}
		if got := rec.elapsed(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reports at %v, want %v", got, want)
		}
	})
}

// TestReporterStopsAtCancel: once the call's context ends no report is
// sent, neither a periodic one nor the last.
func TestReporterStopsAtCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		ctx, cancel := context.WithCancel(t.Context())
		n := 0
		r := startProgress(ctx, rec.env(), 0, counting(&n))
		time.Sleep(600 * time.Millisecond)
		cancel()
		time.Sleep(time.Second)
		r.finish(counting(&n))
		if got := rec.elapsed(); fmt.Sprint(got) != fmt.Sprint([]time.Duration{250 * time.Millisecond, 500 * time.Millisecond}) {
			t.Fatalf("reports at %v, want only the two before the cancellation", got)
		}
	})
}

// TestReporterWithoutCallback: with no Progress on the Env nothing runs.
func TestReporterWithoutCallback(t *testing.T) {
	n := 0
	r := startProgress(t.Context(), &tool.Env{}, 0, counting(&n))
	if r != nil {
		t.Fatal("a reporter started without a callback")
	}
	r.finish(counting(&n))
	if n != 0 {
		t.Errorf("sampled %d times", n)
	}
}
