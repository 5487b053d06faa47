package web

import (
	"context"

	"github.com/vigil-web/vigil"
)

// versionBody is a version as the API answers it: with why its body is
// read as its source text.
type versionBody struct {
	*vigil.Version
	// ReadAsText is why the version's body, which does not parse as HTML
	// or XML, is read, compared and shown as its source text (the parse
	// error, in words; Warehouse.ReadAsText); empty for a page.
	ReadAsText string `json:"readAsText,omitempty"`
}

// versionBodies returns the versions of list as the API answers them.
func (s *Server) versionBodies(ctx context.Context, list []*vigil.Version) ([]*versionBody, error) {
	out := make([]*versionBody, len(list))
	for i, v := range list {
		why, err := s.listedReadAsText(ctx, v)
		if err != nil {
			return nil, err
		}
		out[i] = &versionBody{Version: v, ReadAsText: why}
	}
	return out, nil
}

// changeBody is a change as the API answers it: with why each of its two
// versions is read as its source text.
type changeBody struct {
	*vigil.Change
	// FromReadAsText and ToReadAsText are the ReadAsText of versions
	// FromVersion and ToVersion (versionBody); empty for a page, and for
	// a version no longer kept.
	FromReadAsText string `json:"fromReadAsText,omitempty"`
	ToReadAsText   string `json:"toReadAsText,omitempty"`
}

// changeBodies returns the changes of list as the API answers them. A
// version several changes name (one change's new version is the next
// one's old) is read once.
func (s *Server) changeBodies(ctx context.Context, list []*vigil.Change) ([]*changeBody, error) {
	out := make([]*changeBody, len(list))
	known := map[int64]string{}
	readAsText := func(id int64) (string, error) {
		if why, ok := known[id]; ok {
			return why, nil
		}
		why, err := s.versionReadAsText(ctx, id)
		if err == nil {
			known[id] = why
		}
		return why, err
	}
	for i, c := range list {
		b := &changeBody{Change: c}
		var err error
		if b.FromReadAsText, err = readAsText(c.FromVersion); err != nil {
			return nil, err
		}
		if b.ToReadAsText, err = readAsText(c.ToVersion); err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// versionReadAsText returns why version id is read as its source text;
// "" for no version (id 0) or one no longer kept.
func (s *Server) versionReadAsText(ctx context.Context, id int64) (string, error) {
	if id == 0 {
		return "", nil
	}
	v, err := s.Store.FindVersionByID(ctx, id)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return s.listedReadAsText(ctx, v)
}

// listedReadAsText returns why version v, listed in a history or a page
// of the API, is read as its source text (Warehouse.ReadAsText); "" for
// a version retention dropped since it was listed, whose body, not known
// to be read as text, could no longer be read.
func (s *Server) listedReadAsText(ctx context.Context, v *vigil.Version) (string, error) {
	why, err := s.Warehouse.ReadAsText(ctx, v)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		if _, ferr := s.Store.FindVersionByID(ctx, v.ID); vigil.ErrorCode(ferr) == vigil.ENOTFOUND {
			return "", nil
		}
	}
	return why, err
}
