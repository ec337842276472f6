package tools

import (
	"slices"
	"testing"
	"time"

	"github.com/hands-dev/hands/internal/search"
)

// TestSortRecentThenByName pins Gemini CLI 0.1.13's glob order: files
// changed within a day newest first, then the rest by collated path
// whatever their times (a, ä, B, not B, a, ä).
func TestSortRecentThenByName(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	entries := []search.Entry{
		{Path: "/r/B.txt", ModTime: at(48 * time.Hour)},
		{Path: "/r/old-new.txt", ModTime: at(25 * time.Hour)},
		{Path: "/r/ä.txt", ModTime: at(72 * time.Hour)},
		{Path: "/r/recent-older.txt", ModTime: at(2 * time.Hour)},
		{Path: "/r/a.txt", ModTime: at(30 * 24 * time.Hour)},
		{Path: "/r/recent-newest.txt", ModTime: at(time.Minute)},
		{Path: "/r/_under.txt", ModTime: at(40 * time.Hour)},
	}
	sortRecentThenByName(entries, now)
	var got []string
	for _, e := range entries {
		got = append(got, e.Path)
	}
	want := []string{"/r/recent-newest.txt", "/r/recent-older.txt", "/r/_under.txt", "/r/a.txt", "/r/ä.txt", "/r/B.txt", "/r/old-new.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("order\n got %q\nwant %q", got, want)
	}
}

func TestAnchorGlobs(t *testing.T) {
	got := anchorGlobs([]string{"*.go", "!*.md", "src/**", "/top.txt", "*.{go,ts}"})
	want := []string{"/*.go", "!/*.md", "/src/**", "/top.txt", "/*.{go,ts}"}
	if !slices.Equal(got, want) {
		t.Errorf("anchorGlobs = %q, want %q", got, want)
	}
}

func TestUncutLine(t *testing.T) {
	cut := cutLine("abcdef", 3, new(int))
	if kept, was := UncutLine(cut); kept != "abc" || !was {
		t.Errorf("UncutLine(%q) = %q, %v", cut, kept, was)
	}
	if kept, was := UncutLine("whole line"); kept != "whole line" || was {
		t.Errorf("UncutLine of a whole line = %q, %v", kept, was)
	}
}

func TestLimitsOr(t *testing.T) {
	got := Limits{MaxFileSize: 5, ReadLines: 7}.Or(Limits{MaxFileSize: 9, BashOutputChars: 11})
	if want := (Limits{MaxFileSize: 5, ReadLines: 7, BashOutputChars: 11}); got != want {
		t.Errorf("Or = %+v, want %+v", got, want)
	}
}
