package gateway

import (
	"sync"
	"time"
)

// expiring is a bounded map whose entries expire: what the flow rules
// remember of forges' answers (visibility, who an author is), so a check
// costs a forge call at most once per lifetime.
type expiring[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]expiringEntry[V]
	now     func() time.Time
}

type expiringEntry[V any] struct {
	v     V
	until time.Time
}

// maxExpiringEntries bounds each cache; past it, expired entries are
// dropped, then everything.
const maxExpiringEntries = 10000

func (c *expiring[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || !c.now().Before(e.until) {
		var zero V
		return zero, false
	}
	return e.v, true
}

func (c *expiring[K, V]) put(k K, v V, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.entries == nil || len(c.entries) >= maxExpiringEntries {
		for key, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, key)
			}
		}
		if c.entries == nil || len(c.entries) >= maxExpiringEntries {
			c.entries = map[K]expiringEntry[V]{}
		}
	}
	c.entries[k] = expiringEntry[V]{v: v, until: now.Add(ttl)}
}
