package intent

import (
	"net/url"
	"slices"
	"strings"
)

// A CDN or a cloud store serves a private image or file at a signed URL:
// its address with query parameters that sign it and say when the
// signature expires, which a page gets anew at every fetch. They are not
// content (as a meta's absolute URL is none: isReaderMeta), so an image
// whose URL differs only in them is the same image, for any change (an
// src attribute) and for images (the image's source), and a link (a
// signed download link) the same link, for any change (an href) and for
// links (the link's target); a change's record names the URL as the page
// has it. A change of the path, or of any other parameter, is still a
// change. A scheme's parameters are dropped only where its query holds
// its signature and the companions that every URL it signs has
// (signingSchemes), so that a page's own parameters that happen to share
// a name (an expires, a policy, an sp or an st) are kept on a URL that no
// such scheme signed.

// A signingScheme is a way of signing URLs, by its parameters' names in
// lower case.
type signingScheme struct {
	signature string     // the parameter that signs the URL
	with      [][]string // of each, one more parameter the query must hold
	params    []string   // the parameters dropped, signature among them
	prefix    string     // and those whose name starts so
}

// signingSchemes are the schemes recognised, by their parameters' names
// in lower case. Of the schemes with one signature parameter (CloudFront,
// AWS Signature Version 2 and Google's V2 all sign with Signature), the
// first whose parameters the query holds is its scheme.
var signingSchemes = []signingScheme{
	// AWS Signature Version 4: every X-Amz-* (X-Amz-Signature,
	// X-Amz-Date, X-Amz-Expires, X-Amz-Credential, X-Amz-Security-Token,
	// X-Amz-SignedHeaders, X-Amz-Algorithm).
	{signature: "x-amz-signature", prefix: "x-amz-"},
	// Google Cloud Storage V4: every X-Goog-*.
	{signature: "x-goog-signature", prefix: "x-goog-"},
	// CloudFront: Signature and Key-Pair-Id, with Expires (a canned
	// policy) or Policy (a custom one).
	{
		signature: "signature", with: [][]string{{"key-pair-id"}, {"expires", "policy"}},
		params: []string{"signature", "key-pair-id", "expires", "policy"},
	},
	// AWS Signature Version 2: Signature, AWSAccessKeyId and Expires, and
	// a temporary credential's X-Amz-Security-Token.
	{
		signature: "signature", with: [][]string{{"awsaccesskeyid"}, {"expires"}},
		params: []string{"signature", "awsaccesskeyid", "expires", "x-amz-security-token"},
	},
	// Google Cloud Storage V2: Signature, GoogleAccessId and Expires.
	{
		signature: "signature", with: [][]string{{"googleaccessid"}, {"expires"}},
		params: []string{"signature", "googleaccessid", "expires"},
	},
	// An Azure shared access signature: sig with the service version
	// (sv) and an expiry (se) or a stored access policy (si); sig and
	// every SAS field (sv, se, st, sp, sr, spr, ss, srt, si, the user
	// delegation key's sk*, the response headers' rsc*), which are
	// ordinary parameters on another URL.
	{
		signature: "sig", with: [][]string{{"sv"}, {"se", "si"}},
		params: []string{
			"sig", "sv", "ss", "srt", "sp", "se", "st", "spr", "sr", "si", "sdd", "sip",
			"skoid", "sktid", "skt", "ske", "sks", "skv", "saoid", "suoid", "scid",
			"rscc", "rscd", "rsce", "rscl", "rsct",
		},
	},
}

// unsignedURL returns u, a URL as written or resolved, without its
// signing parameters (see above), the others kept in their order and
// spelling; u itself when it has none.
func unsignedURL(u string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	if !mayBeSigned(query) {
		return u // most URLs: no scheme's signature, nothing to split
	}
	params := strings.Split(query, "&")
	names := make([]string, len(params))
	for i, p := range params {
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		names[i] = strings.ToLower(name)
	}
	schemes := signedBy(names)
	if len(schemes) == 0 {
		return u
	}
	kept := params[:0:0]
	for i, p := range params {
		if !isSigningParam(names[i], schemes) {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(params) {
		return u
	}
	out := u[:q]
	if len(kept) > 0 {
		out += "?" + strings.Join(kept, "&")
	}
	return out + frag
}

// signedBy returns the schemes (signingSchemes) that signed a URL whose
// query's parameters are called names (in lower case): those whose
// signature and companions the names hold, one for each signature
// parameter.
func signedBy(names []string) []*signingScheme {
	var out []*signingScheme
	for i := range signingSchemes {
		s := &signingSchemes[i]
		if !slices.Contains(names, s.signature) || slices.ContainsFunc(out, func(o *signingScheme) bool { return o.signature == s.signature }) {
			continue
		}
		held := true
		for _, alts := range s.with {
			if !slices.ContainsFunc(alts, func(n string) bool { return slices.Contains(names, n) }) {
				held = false
				break
			}
		}
		if held {
			out = append(out, s)
		}
	}
	return out
}

// isSigningParam reports whether a query parameter called name (in lower
// case) signs its URL under one of schemes.
func isSigningParam(name string, schemes []*signingScheme) bool {
	for _, s := range schemes {
		if s.prefix != "" && strings.HasPrefix(name, s.prefix) || slices.Contains(s.params, name) {
			return true
		}
	}
	return false
}

// mayBeSigned reports whether query may hold a signature parameter of a
// signingScheme: each one's name holds "sig" (in any case), which a name
// may also write percent-encoded. attrValue reads every src and href of
// a page through unsignedURL, most of them with no signature.
func mayBeSigned(query string) bool {
	for i := 0; i+2 < len(query); i++ {
		switch query[i] {
		case '%':
			return true
		case 's', 'S':
			if query[i+1]|0x20 == 'i' && query[i+2]|0x20 == 'g' {
				return true
			}
		}
	}
	return false
}
