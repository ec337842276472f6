package web

import (
	"container/list"
	"sync"
	"time"
)

// cache keeps fetched pages for a while, bounded by the size of their
// content; the least recently used go first.
type cache struct {
	mu      sync.Mutex
	max     int64
	ttl     time.Duration
	now     func() time.Time
	size    int64
	order   *list.List // of *cacheEntry, most recent first
	entries map[string]*list.Element
}

type cacheEntry struct {
	key     string
	page    Page
	expires time.Time
}

func newCache(max int64, ttl time.Duration, now func() time.Time) *cache {
	return &cache{max: max, ttl: ttl, now: now, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *cache) get(key string) (*Page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.remove(el)
		return nil, false
	}
	c.order.MoveToFront(el)
	p := e.page
	return &p, true
}

func (c *cache) put(key string, p *Page) {
	n := int64(len(p.Content))
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, page: *p, expires: c.now().Add(c.ttl)})
	c.size += n
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*cacheEntry)
	delete(c.entries, e.key)
	c.size -= int64(len(e.page.Content))
}
