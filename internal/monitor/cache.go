package monitor

import (
	"sync"

	"github.com/vigil-web/vigil"
)

// bodyCache keeps the bodies of recent versions by id, up to a total size,
// so that comparing a page with its previous version reads neither back
// from the store (where the previous one is now a patch against the new).
// It forgets the oldest entries first.
type bodyCache struct {
	mu    sync.Mutex
	m     map[int64]body
	order []int64
	size  int
	max   int
}

// body is a version's body with what its parse needs to know, and the
// version, whose name a delta of it gives (vigil.Version.DeltaName).
type body struct {
	data                 []byte
	charset, contentType string
	version              *vigil.Version
}

func (c *bodyCache) get(id int64) (body, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[id]
	return b, ok
}

func (c *bodyCache) put(id int64, b body) {
	if c.max <= 0 || cap(b.data) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[int64]body{}
	}
	if _, ok := c.m[id]; ok {
		return
	}
	c.m[id] = b
	c.order = append(c.order, id)
	c.size += cap(b.data)
	for c.size > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= cap(c.m[old].data)
		delete(c.m, old)
	}
	if cap(c.order) > 4*len(c.order)+1024 {
		c.order = append([]int64(nil), c.order...)
	}
}

// headCache keeps the newest version of each resource this monitor saw or
// wrote, bounded, so that a check reads no head from the store. Another
// process writing the same store makes an entry stale. A write is safe
// all the same: the warehouse appends on the store's own head (the store
// refuses any other, ECONFLICT) and, told the head its caller saw
// (warehouse.Fetch.CheckHead), keeps another process's version of the
// same content rather than a copy. What a stale entry would get wrong is
// a read taken as unchanged: the other process stores B over this one's
// A, the page goes back to A, and this monitor, still holding A, would
// store nothing, the store's newest staying B. So, with a store other
// processes write (Monitor.SharedStore: vigil serve workers on one
// PostgreSQL store), a page about to be taken as unchanged against its
// cached head (a body equal to the head's, an answer 304 Not Modified to
// its validators, the same failure again) has that head confirmed with
// one read of the store's newest (confirmHead), and is compared with the
// store's newest if that is another. A changed page needs no such read,
// nor does a SQLite store, which one vigil serve holds (its data
// directory is locked). Only vigil import warc writes versions beside
// that daemon: a page it imported a newer version of and that still
// serves the daemon's cached head is taken as unchanged, until it next
// changes.
type headCache struct {
	mu  sync.Mutex
	m   map[int64]*vigil.Version
	max int
}

func (c *headCache) get(resource int64) *vigil.Version {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[resource]
}

// put records v as the newest version of resource; a nil v forgets the
// resource's entry (a write that failed may have left the store's newest
// version other than the one kept), so that the next check reads it from
// the store. A v older than the entry kept (a read of the store that
// answered after a write of the resource was put) leaves the entry: the
// versions of a resource only grow, and a stale head taken for the newest
// would have a page back to its body left unstored.
func (c *headCache) put(resource int64, v *vigil.Version) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v == nil {
		delete(c.m, resource)
		return
	}
	if old := c.m[resource]; old != nil && old.Seq > v.Seq {
		return
	}
	if c.m == nil || len(c.m) >= c.max {
		c.m = map[int64]*vigil.Version{}
	}
	c.m[resource] = v
}
