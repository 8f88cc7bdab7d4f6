package forgemodel

import (
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"time"
)

// Counters are where a fake's state draws its numbers from. The zero
// value starts ids after 100, user ids at 1 and times at the current
// second; callers hold the fake's lock.
type Counters struct {
	// Clock is the fake's "now"; zero = the current time in whole seconds.
	Clock time.Time
	// IDsAfter is where ids start after (0 = 100), FirstUser the first
	// user's id (0 = 1): a fake's figures look like its forge's.
	IDsAfter, FirstUser int64
	ids                 int64
	ticks               int
	users               map[string]int64
}

// ID is the next id; one sequence for every kind keeps ids unique.
func (c *Counters) ID() int64 {
	if floor := cmp.Or(c.IDsAfter, 100); c.ids < floor {
		c.ids = floor
	}
	c.ids++
	return c.ids
}

// Now is the fake's "now".
func (c *Counters) Now() time.Time {
	if c.Clock.IsZero() {
		c.Clock = time.Unix(time.Now().Unix(), 0)
	}
	return c.Clock
}

// Tick is the time of the next thing created: a second after the last.
func (c *Counters) Tick() time.Time {
	c.ticks++
	return c.Now().Add(time.Duration(c.ticks) * time.Second)
}

// User is name's numeric id, assigned on first sight from 1.
func (c *Counters) User(name string) int64 {
	if c.users == nil {
		c.users = map[string]int64{}
	}
	id, ok := c.users[name]
	if !ok {
		id = cmp.Or(c.FirstUser, 1) + int64(len(c.users))
		c.users[name] = id
	}
	return id
}

// UserName is the name with id, if one was seen.
func (c *Counters) UserName(id int64) (string, bool) {
	for name, uid := range c.users {
		if uid == id {
			return name, true
		}
	}
	return "", false
}

// KnownUser reports whether name was seen.
func (c *Counters) KnownUser(name string) bool {
	_, ok := c.users[name]
	return ok
}

// BlobSHA is git's blob id of content, as a forge reports a file's sha.
func BlobSHA(content string) string {
	sum := sha1.Sum(fmt.Appendf(nil, "blob %d\x00%s", len(content), content))
	return hex.EncodeToString(sum[:])
}

// SHA is a stable fake 40-digit id of whatever describes a state.
func SHA(state string) string {
	sum := sha1.Sum([]byte(state))
	return hex.EncodeToString(sum[:])
}

// Or is s, or def when s is empty.
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
