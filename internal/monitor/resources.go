package monitor

import (
	"context"
	"sync"

	"github.com/vigil-web/vigil"
)

// ResourceStore is the part of the store the warehouse writes through.
type ResourceStore interface {
	vigil.ResourceStore
	vigil.VersionStore
}

// CachedResources wraps a store so that EnsureResource answers from memory
// for URLs it has seen: the warehouse ensures the resource on every write,
// which would otherwise be a write transaction each time. The cache is
// bounded; DeleteResource through the wrapper empties it, and a resource
// deleted otherwise (by another process) is forgotten when the store
// answers an append of its version ENOTFOUND, so that the writer's next
// EnsureResource finds or creates the URL's resource afresh (see
// Monitor.putVersion).
func CachedResources(s ResourceStore) ResourceStore {
	return &cachedResources{ResourceStore: s, m: map[string]*vigil.Resource{}}
}

type cachedResources struct {
	ResourceStore
	mu sync.Mutex
	m  map[string]*vigil.Resource
}

func (c *cachedResources) EnsureResource(ctx context.Context, rawURL string) (*vigil.Resource, error) {
	c.mu.Lock()
	r := c.m[rawURL]
	c.mu.Unlock()
	if r != nil {
		cp := *r
		return &cp, nil
	}
	r, err := c.ResourceStore.EnsureResource(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.m) >= 1<<16 {
		c.m = map[string]*vigil.Resource{}
	}
	cp := *r
	c.m[rawURL] = &cp
	c.mu.Unlock()
	return r, nil
}

func (c *cachedResources) DeleteResource(ctx context.Context, id int64) error {
	c.mu.Lock()
	c.m = map[string]*vigil.Resource{}
	c.mu.Unlock()
	return c.ResourceStore.DeleteResource(ctx, id)
}

// AppendVersion appends through the wrapped store, and forgets the
// resource of an append it answers ENOTFOUND: deleted by another process.
func (c *cachedResources) AppendVersion(ctx context.Context, a *vigil.Append) error {
	err := c.ResourceStore.AppendVersion(ctx, a)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND && a.Version != nil {
		c.forget(a.Version.ResourceID)
	}
	return err
}

// forget drops the URLs of resource id.
func (c *cachedResources) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for url, r := range c.m {
		if r.ID == id {
			delete(c.m, url)
		}
	}
}
