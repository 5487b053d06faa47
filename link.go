package vigil

import "net/url"

// LinkType classifies a hyperlink as the WHOWEDA model does (note 004, §1.2).
type LinkType string

const (
	LinkInterior LinkType = "interior" // to a place inside the same document
	LinkLocal    LinkType = "local"    // to another document on the same host and port
	LinkGlobal   LinkType = "global"   // to a document on another host or port
)

// Valid reports whether t is one of the three link types.
func (t LinkType) Valid() bool {
	return t == LinkInterior || t == LinkLocal || t == LinkGlobal
}

// Link is one outgoing hyperlink of a version: the WHOWEDA link object's
// metadata (source URL, target URL, link type) and its label (anchor text).
type Link struct {
	VersionID int64    `json:"versionId"`
	Source    string   `json:"source"` // canonical URL of the version's resource
	Target    string   `json:"target"` // absolute target URL, fragment kept
	Anchor    string   `json:"anchor"` // anchor text, white space collapsed
	Type      LinkType `json:"type"`
}

// Validate returns an EINVALID error naming the first bad field.
func (l *Link) Validate() error {
	switch {
	case l.Source == "":
		return Errorf(EINVALID, "link source required")
	case l.Target == "":
		return Errorf(EINVALID, "link target required")
	case !l.Type.Valid():
		return Errorf(EINVALID, "link type %q must be interior, local or global", l.Type)
	}
	return nil
}

// ClassifyLink returns the link type of a link from the document at source
// to target (both absolute): interior when both name the same document
// (ignoring fragments), local when they share scheme-independent host and
// port, global otherwise. "Same site" is read strictly as the same host and
// port: www.example.com and example.com are different servers.
func ClassifyLink(source, target string) LinkType {
	s, err1 := CanonicalURL(source)
	t, err2 := CanonicalURL(target)
	if err1 != nil || err2 != nil {
		return LinkGlobal
	}
	if s == t {
		return LinkInterior
	}
	su, _ := url.Parse(s)
	tu, _ := url.Parse(t)
	if su.Host == tu.Host {
		return LinkLocal
	}
	return LinkGlobal
}
