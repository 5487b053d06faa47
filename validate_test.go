package vigil_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestValidate checks that each domain type's Validate accepts a good value
// and names the field of a bad one.
func TestValidate(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	hash := strings.Repeat("ab", 32)
	tests := map[string]struct {
		v     interface{ Validate() error }
		field string // "" when valid
	}{
		"resource ok":               {&vigil.Resource{URL: "http://example.com/", Host: "example.com"}, ""},
		"resource not canon":        {&vigil.Resource{URL: "HTTP://example.com", Host: "example.com"}, "url"},
		"resource no url":           {&vigil.Resource{}, "url"},
		"version ok":                {&vigil.Version{ResourceID: 1, FetchedAt: now, Status: 200, ContentHash: hash}, ""},
		"version no resource":       {&vigil.Version{FetchedAt: now, ContentHash: hash}, "resourceId"},
		"version no time":           {&vigil.Version{ResourceID: 1, ContentHash: hash}, "fetchedAt"},
		"version bad hash":          {&vigil.Version{ResourceID: 1, FetchedAt: now, ContentHash: "ABC"}, "contentHash"},
		"version bad status":        {&vigil.Version{ResourceID: 1, FetchedAt: now, Status: 1000, ContentHash: hash}, "status"},
		"version neg size":          {&vigil.Version{ResourceID: 1, FetchedAt: now, Size: -1, ContentHash: hash}, "size"},
		"version final url":         {&vigil.Version{ResourceID: 1, FetchedAt: now, ContentHash: hash, URL: "https://a.example/new/page"}, ""},
		"version relative url":      {&vigil.Version{ResourceID: 1, FetchedAt: now, ContentHash: hash, URL: "/new/page"}, "url"},
		"version url not canonical": {&vigil.Version{ResourceID: 1, FetchedAt: now, ContentHash: hash, URL: "HTTPS://A.example:443/new/page#x"}, "url"},
		"link ok":                   {&vigil.Link{Source: "http://a/", Target: "http://b/", Type: vigil.LinkGlobal}, ""},
		"link bad type":             {&vigil.Link{Source: "http://a/", Target: "http://b/", Type: "far"}, "type"},
		"link no target":            {&vigil.Link{Source: "http://a/", Type: vigil.LinkLocal}, "target"},
		"sentinel ok":               {&vigil.Sentinel{OwnerID: 1, Name: "n", Source: "s", Status: vigil.SentinelActive, Spec: json.RawMessage(`{}`)}, ""},
		"sentinel no owner":         {&vigil.Sentinel{Name: "n", Source: "s", Status: vigil.SentinelActive}, "ownerId"},
		"sentinel no name":          {&vigil.Sentinel{OwnerID: 1, Source: "s", Status: vigil.SentinelActive}, "name"},
		"sentinel bad spec":         {&vigil.Sentinel{OwnerID: 1, Name: "n", Source: "s", Status: vigil.SentinelActive, Spec: json.RawMessage(`{`)}, "spec"},
		"sentinel bad status":       {&vigil.Sentinel{OwnerID: 1, Name: "n", Source: "s", Status: "sleeping"}, "status"},
		"user ok":                   {&vigil.User{Email: "a@example.com"}, ""},
		"user bad email":            {&vigil.User{Email: "a example.com"}, "email"},
		"token ok":                  {&vigil.Token{UserID: 1, Hash: vigil.HashToken("x")}, ""},
		"token short hash":          {&vigil.Token{UserID: 1, Hash: []byte("x")}, "hash"},
		"change ok":                 {&vigil.Change{SentinelID: 1, ResourceID: 1, FromVersion: 1, ToVersion: 2, DetectedAt: now}, ""},
		"change same versions":      {&vigil.Change{SentinelID: 1, ResourceID: 1, FromVersion: 2, ToVersion: 2, DetectedAt: now}, "fromVersion"},
		"change bad records":        {&vigil.Change{SentinelID: 1, ResourceID: 1, ToVersion: 2, DetectedAt: now, Records: json.RawMessage(`[`)}, "records"},
		"notification ok":           {&vigil.Notification{Channel: "email", Target: "a@b", Payload: json.RawMessage(`{}`)}, ""},
		"notification payload":      {&vigil.Notification{Channel: "email", Target: "a@b"}, "payload"},
		"notification state":        {&vigil.Notification{Channel: "email", Target: "a@b", Payload: json.RawMessage(`{}`), State: "lost"}, "state"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			err := tt.v.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("valid value refused: %v", err)
				}
				return
			}
			if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), tt.field) {
				t.Fatalf("error %v: want EINVALID naming %q", err, tt.field)
			}
		})
	}
}

func TestTokenExpired(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	if (&vigil.Token{}).Expired(now) {
		t.Error("a token without expiry expired")
	}
	if !(&vigil.Token{ExpiresAt: now}).Expired(now) || (&vigil.Token{ExpiresAt: now.Add(time.Second)}).Expired(now) {
		t.Error("expiry boundary")
	}
}
