package match

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// dfa answers "does this line match?" for a line-mode pattern with a lazy
// DFA built from the regexp/syntax program, one table look-up per byte.
// States are sets of program counters, created the first time a
// transition needs them and shared by all goroutines: a transition is
// read with an atomic load and written under mu. Each line is matched on
// its own (a '\n' ends the text for "$", "\z" and "\b" and starts it
// again), which is regexp.Match on the line; the pattern cannot match
// '\n' in line mode, so no match is lost. It answers only whether a line
// matches; positions come from the regexp.
//
// Bytes below 0x80 are grouped into classes that no instruction of the
// program tells apart; a byte of 0x80 or more starts a UTF-8 sequence,
// decoded as the regexp decodes it (an invalid byte is U+FFFD, one byte
// wide) and looked up in a small per-state cache.
//
// The states are bounded (maxDFAStates): past the bound the cache starts
// again from nothing, and after maxDFAResets fresh starts the DFA gives up
// and the caller falls back to the regexp, so a pattern whose DFA blows
// up (as `[ab]*a[ab]{20}`) costs no more memory than the bound.
type dfa struct {
	prog    *syntax.Prog
	class   [256]uint8 // byte → class; nlClass for '\n', multiClass for >= 0x80
	rep     []rune     // a byte of each ASCII class, as a rune
	members [][]byte   // the bytes of each class
	nclass  int
	start   atomic.Pointer[dstate]
	matched *dstate // the sentinel for "a match ended before this byte"
	failed  atomic.Bool
	// The bounds, maxDFAStates and maxDFAResets but in tests.
	maxStates, maxResets int

	mu     sync.Mutex // guards what follows and every write of a transition
	states map[string]*dstate
	resets int
	// Scratch space for closures.
	seen  []uint32
	gen   uint32
	stack []uint32
	runes []uint32
	pcs   []uint32
	key   []byte
}

// dstate is a set of instructions (runes to match, empty-width
// assertions, Match) reached before the next byte, with what the
// previous character was.
type dstate struct {
	pcs  []uint32
	prev rune // -1 at the start of a line, 'a' after a word character, ' ' after another
	// next is the transition by byte, never set for bytes >= 0x80 nor
	// for the bytes in matchOn, so that the scan checks only for nil.
	next    [256]atomic.Pointer[dstate]
	matchOn [4]atomic.Uint64                 // the bytes before which a match ends
	multi   atomic.Pointer[map[rune]*dstate] // transitions on runes >= 0x80 (copied on write)
}

const (
	maxDFAStates = 4096 // 2 KiB or more each
	maxDFAResets = 8
	maxRuneCache = 64
	nlClass      = 0
	multiClass   = 1
)

// newDFA builds the DFA of a line-mode pattern; prog must be compiled
// from the same parse tree as the regexp the caller falls back to.
func newDFA(prog *syntax.Prog) *dfa {
	d := &dfa{prog: prog, matched: &dstate{}, maxStates: maxDFAStates, maxResets: maxDFAResets}
	d.seen = make([]uint32, len(prog.Inst))
	// Classes: ASCII bytes with the same answers from every rune
	// instruction and the same word-character status share a class.
	var runeInsts []*syntax.Inst
	for i := range prog.Inst {
		switch prog.Inst[i].Op {
		case syntax.InstRune, syntax.InstRune1:
			runeInsts = append(runeInsts, &prog.Inst[i])
		}
	}
	d.rep = []rune{'\n', utf8.RuneError} // placeholders of nlClass and multiClass
	sigs := map[string]uint8{}
	sig := make([]byte, 0, len(runeInsts)+1)
	for b := range 256 {
		switch {
		case b == '\n':
			d.class[b] = nlClass
			continue
		case b >= utf8.RuneSelf:
			d.class[b] = multiClass
			continue
		}
		sig = sig[:0]
		sig = append(sig, boolByte(syntax.IsWordChar(rune(b))))
		for _, in := range runeInsts {
			sig = append(sig, boolByte(in.MatchRune(rune(b))))
		}
		c, ok := sigs[string(sig)]
		if !ok {
			c = uint8(len(d.rep))
			sigs[string(sig)] = c
			d.rep = append(d.rep, rune(b))
		}
		d.class[b] = c
	}
	d.nclass = len(d.rep)
	d.members = make([][]byte, d.nclass)
	for b := range utf8.RuneSelf {
		d.members[d.class[b]] = append(d.members[d.class[b]], byte(b))
	}
	d.reset()
	return d
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// reset empties the state cache and makes a new start state; mu is held
// (or the dfa not yet shared).
func (d *dfa) reset() {
	d.states = make(map[string]*dstate)
	start, _ := d.closure(nil, []uint32{uint32(d.prog.Start)}, 0, true)
	d.start.Store(d.state(start, -1))
}

// state returns the state of pcs (a closure, sorted here) after a
// character of kind prev, making it when new.
func (d *dfa) state(pcs []uint32, prev rune) *dstate {
	slices.Sort(pcs)
	d.key = d.key[:0]
	for _, pc := range pcs {
		d.key = binary.AppendUvarint(d.key, uint64(pc))
	}
	d.key = append(d.key, byte(prev))
	if s, ok := d.states[string(d.key)]; ok {
		return s
	}
	s := &dstate{pcs: slices.Clone(pcs), prev: prev}
	d.states[string(d.key)] = s
	return s
}

// closure appends to out the instructions reached from pcs through
// empty transitions: rune instructions, Match, and, when partial, the
// empty-width assertions themselves (their truth depends on the next
// byte, not known yet); otherwise assertions true under flags are
// followed. It reports whether Match was reached when not partial.
func (d *dfa) closure(out []uint32, pcs []uint32, flags syntax.EmptyOp, partial bool) ([]uint32, bool) {
	d.gen++
	if d.gen == 0 {
		clear(d.seen)
		d.gen = 1
	}
	stack := append(d.stack[:0], pcs...)
	defer func() { d.stack = stack[:0] }()
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.seen[pc] == d.gen {
			continue
		}
		d.seen[pc] = d.gen
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if partial {
				out = append(out, pc)
			} else if syntax.EmptyOp(in.Arg)&^flags == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstMatch:
			if !partial {
				return out, true
			}
			out = append(out, pc)
		case syntax.InstFail:
		default: // the rune instructions
			out = append(out, pc)
		}
	}
	return out, false
}

// step computes the transition of s on r (-1 for the end of the line)
// with mu held: the matched sentinel, the start state after a line, or
// the state after r.
func (d *dfa) step(s *dstate, r rune) *dstate {
	runes, matched := d.closure(d.runes[:0], s.pcs, syntax.EmptyOpContext(s.prev, r), false)
	d.runes = runes
	if matched {
		return d.matched
	}
	if r < 0 {
		return d.start.Load()
	}
	next := d.pcs[:0]
	for _, pc := range runes {
		in := &d.prog.Inst[pc]
		var ok bool
		switch in.Op {
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		default:
			ok = in.MatchRune(r)
		}
		if ok {
			next = append(next, in.Out)
		}
	}
	next = append(next, uint32(d.prog.Start)) // unanchored: a match may start anywhere
	d.pcs = next
	closed, _ := d.closure(nil, next, 0, true)
	prev := rune(' ')
	if syntax.IsWordChar(r) {
		prev = 'a'
	}
	if len(d.states) >= d.maxStates {
		d.resets++
		if d.resets > d.maxResets {
			d.failed.Store(true)
			return nil
		}
		d.reset()
	}
	return d.state(closed, prev)
}

// slow follows the transition of s on buf[i:] that the table does not
// hold: it computes and records it. It returns the next state and the
// width of the character, or nil when the DFA gave up.
func (d *dfa) slow(s *dstate, buf []byte, i int) (*dstate, int) {
	b := buf[i]
	if b < utf8.RuneSelf {
		if s.matchOn[b>>6].Load()&(1<<(b&63)) != 0 {
			return d.matched, 1
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.failed.Load() {
			return nil, 0
		}
		c := d.class[b]
		r := d.rep[c]
		if c == nlClass {
			r = -1
		}
		ns := d.step(s, r)
		switch ns {
		case nil:
		case d.matched:
			for _, b := range d.members[c] {
				s.matchOn[b>>6].Or(1 << (b & 63))
			}
		default:
			for _, b := range d.members[c] {
				s.next[b].Store(ns)
			}
		}
		return ns, 1
	}
	r, size := utf8.DecodeRune(buf[i:])
	if m := s.multi.Load(); m != nil {
		if ns, ok := (*m)[r]; ok {
			return ns, size
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed.Load() {
		return nil, 0
	}
	ns := d.step(s, r)
	if ns == nil {
		return nil, 0
	}
	old := s.multi.Load()
	if old == nil || len(*old) < maxRuneCache {
		m := make(map[rune]*dstate, 1+lenMap(old))
		if old != nil {
			for k, v := range *old {
				m[k] = v
			}
		}
		m[r] = ns
		s.multi.Store(&m)
	}
	return ns, size
}

var nlByte = []byte{'\n'}

func lenMap(m *map[rune]*dstate) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// match reports whether line, without its '\n', matches, and ok false
// when the DFA gave up.
func (d *dfa) match(line []byte) (matched, ok bool) {
	if len(line) == 0 {
		line = []byte{'\n'} // the empty line, which next needs ended
	}
	at, ok := d.next(line, 0)
	return at >= 0, ok
}

// next returns the offset in buf, at or after pos (0 or just after a
// '\n'), where a match in a line of buf ends: the line around it matches.
// It returns -1 when no line matches, and ok false when the DFA gave up
// (the caller falls back to the regexp from pos). A final line without
// '\n' counts; the empty text after a final '\n' does not.
func (d *dfa) next(buf []byte, pos int) (at int, ok bool) {
	s, matched := d.start.Load(), d.matched
	start := s
	for i := pos; i < len(buf); {
		if s == start {
			// Most bytes leave the start state as it is: skip them
			// with loads that do not wait for each other.
			for i < len(buf) && start.next[buf[i]].Load() == start {
				i++
			}
			if i == len(buf) {
				break
			}
		}
		ns := s.next[buf[i]].Load()
		if ns == nil {
			var w int
			if ns, w = d.slow(s, buf, i); ns == nil {
				return 0, false
			}
			if ns == matched {
				return i, true
			}
			s, i = ns, i+w
			continue
		}
		s = ns
		i++
	}
	if len(buf) > pos && buf[len(buf)-1] != '\n' {
		ns := s.next['\n'].Load()
		if ns == nil {
			if ns, _ = d.slow(s, nlByte, 0); ns == nil {
				return 0, false
			}
		}
		if ns == matched {
			return len(buf), true
		}
	}
	return -1, true
}
