package glob

import "sync"

// Cached is CompileOptions for the patterns a tool is given: a Glob is
// immutable, so the last ones compiled are kept and given again (a tool
// checks a pattern and then searches with it, and a model repeats its
// patterns). Patterns read from files (.gitignore) should not use it:
// there are many, each compiled once.
func Cached(pattern string, opts Options) (*Glob, error) {
	key := cacheKey{pattern, opts}
	if g := compiled.get(key); g != nil {
		return g, nil
	}
	g, err := CompileOptions(pattern, opts)
	if err == nil {
		compiled.put(key, g)
	}
	return g, err
}

// maxCached bounds the patterns CompileOptions keeps; past it the cache
// starts again empty.
const maxCached = 128

// maxCachedLen is the longest pattern kept: longer ones are rare and cost
// the most memory.
const maxCachedLen = 1024

type cacheKey struct {
	pattern string
	opts    Options
}

// cache maps patterns to their compiled Globs; it is safe for concurrent
// use.
type cache struct {
	mu sync.Mutex
	m  map[cacheKey]*Glob
}

var compiled cache

func (c *cache) get(k cacheKey) *Glob {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *cache) put(k cacheKey, g *Glob) {
	if len(k.pattern) > maxCachedLen {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[cacheKey]*Glob, maxCached)
	}
	c.m[k] = g
}
