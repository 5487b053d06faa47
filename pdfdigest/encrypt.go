package pdfdigest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"strconv"
)

// An encrypted file (ISO 32000-1 §7.6; ISO 32000-2 §7.6) under the
// standard security handler with an empty user password, the usual
// "protected" PDF that opens without one, is read decrypted: its file key
// derived as a reader derives it, each string and stream decrypted, and
// the plaintext hashed by the rules of a file in the clear. The key is
// drawn from the file's /ID (revisions 2 to 4) or from salts at random
// (5 and 6), and AES draws a vector at random for each string and
// stream: new at every run, so none of it is hashed, nor the /Encrypt
// dictionary's values drawn from them (/O, /U, /OE, /UE, /Perms).

// EncryptedError is the error of an encrypted file Sum does not decrypt:
// one that opens with a user password only, or under a security handler,
// a version, a revision or a crypt filter it does not know. The caller
// hashes it otherwise (Vigil's crawl: as its bytes).
type EncryptedError struct {
	Reason string // why, in words
}

// Error returns "pdf encrypted: Reason".
func (e *EncryptedError) Error() string { return "pdf encrypted: " + e.Reason }

func encryptedError(format string, args ...any) error {
	return &EncryptedError{Reason: fmt.Sprintf(format, args...)}
}

// cryptMethod is how a crypt filter encrypts (ISO 32000-1 Table 25,
// /CFM).
type cryptMethod int

const (
	cryptNone  cryptMethod = iota // /Identity, /None
	cryptRC4                      // /V2, and V 1 and 2
	cryptAESV2                    // AES-128 in CBC, a key per object
	cryptAESV3                    // AES-256 in CBC, the file key
)

// encryptKeys are the /Encrypt dictionary's keys left out: those drawn
// from the file's /ID or at random.
var encryptKeys = map[string]bool{"O": true, "U": true, "OE": true, "UE": true, "Perms": true}

// decrypter decrypts the strings and streams of a file.
type decrypter struct {
	key      []byte
	str, stm cryptMethod
	// metadata is false where a metadata stream is in the clear
	// (/EncryptMetadata false).
	metadata bool
	// num and gen are the /Encrypt dictionary's object, whose strings
	// are in the clear; num is -1 if it is direct.
	num, gen int
}

// padding pads a password to 32 bytes (ISO 32000-1 §7.6.3.3, Algorithm
// 2, step a): an empty password is this.
var padding = []byte{
	0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
	0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
}

// findDecrypter returns the decrypter of file b, nil if it is not
// encrypted (no trailer, nor cross-reference stream, names /Encrypt), or
// an *EncryptedError if it cannot be decrypted. It reads the file's
// objects once, without writing them, to find the trailer, which comes
// last, and the /Encrypt dictionary it names.
func findDecrypter(b []byte) (*decrypter, error) {
	if !bytes.Contains(b, []byte("/Encrypt")) {
		return nil, nil
	}
	l := &lexer{b: b}
	offsets := map[int]int{} // the offset of each object's value that may be /Encrypt's, the last one
	var trailer value
	for {
		l.values = 0
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tokenEOF {
			break
		}
		if l.is(t, "trailer") {
			d, err := l.next()
			if err != nil {
				return nil, err
			}
			v, err := l.value(d, 0)
			if err != nil {
				return nil, err
			}
			if _, ok := v.get("Encrypt"); ok {
				trailer = v
			}
			continue
		}
		num, ok := l.integer(t)
		if !ok {
			continue
		}
		save := l.pos
		g, err1 := l.next()
		o, err2 := l.next()
		if _, ok := l.integer(g); !ok || err1 != nil || err2 != nil || !l.is(o, "obj") {
			l.pos = save
			continue
		}
		at := l.pos
		vt, err := l.next()
		if err != nil {
			return nil, err
		}
		v, err := l.value(vt, 0)
		if err != nil {
			return nil, err
		}
		save = l.pos
		if st, err := l.next(); err == nil && l.is(st, "stream") && v.kind == dictValue {
			if _, err := streamData(l, v, st.end); err != nil {
				return nil, err
			}
			typ, _ := v.get("Type")
			if _, ok := v.get("Encrypt"); ok && typ.nameIs("XRef") {
				trailer = v
			}
		} else {
			l.pos = save
			// Only a dictionary with a /Filter, not a stream, may be
			// the /Encrypt dictionary: the others are not kept, so
			// that a file of a million objects keeps few.
			if _, ok := v.get("Filter"); ok {
				offsets[num] = at
			} else {
				delete(offsets, num) // replaced by an update
			}
		}
	}
	ev, ok := trailer.get("Encrypt")
	if !ok {
		return nil, nil // the name elsewhere: in a stream's data
	}
	num, gen := -1, 0
	if ev.kind == refValue {
		n, g := ev.refTokens()
		num, _ = strconv.Atoi(string(n)) // integers of 18 digits at most: never an error
		gen, _ = strconv.Atoi(string(g))
		off, ok := offsets[num]
		if !ok {
			return nil, encryptedError("its /Encrypt dictionary %s is not in the file", excerpt(ev.raw))
		}
		l := &lexer{b: b, pos: off}
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		if ev, err = l.value(t, 0); err != nil {
			return nil, err
		}
	}
	if ev.kind != dictValue {
		return nil, encryptedError("its /Encrypt is no dictionary")
	}
	var id []byte
	if idv, ok := trailer.get("ID"); ok && idv.kind == arrayValue && len(idv.items) > 0 {
		id = stringBytes(idv.items[0].raw)
	}
	c, err := newDecrypter(ev, id)
	if err != nil {
		return nil, err
	}
	c.num, c.gen = num, gen
	return c, nil
}

// newDecrypter returns the decrypter of the standard security handler's
// dictionary enc, with the empty user password, for a file whose /ID
// begins with id.
func newDecrypter(enc value, id []byte) (*decrypter, error) {
	if f, _ := enc.get("Filter"); !f.nameIs("Standard") {
		return nil, encryptedError("security handler %s not decrypted", excerpt(f.raw))
	}
	v, _ := intEntry(enc, "V", 0)
	r, _ := intEntry(enc, "R", 0)
	c := &decrypter{metadata: true}
	if em, ok := enc.get("EncryptMetadata"); ok && string(em.raw) == "false" {
		c.metadata = false
	}
	switch v {
	case 1, 2:
		c.str, c.stm = cryptRC4, cryptRC4
	case 4, 5:
		var err error
		if c.str, err = cryptFilter(enc, "StrF"); err != nil {
			return nil, err
		}
		if c.stm, err = cryptFilter(enc, "StmF"); err != nil {
			return nil, err
		}
	default:
		return nil, encryptedError("/V %d not decrypted", v)
	}
	o, _ := enc.get("O")
	u, _ := enc.get("U")
	ob, ub := stringBytes(o.raw), stringBytes(u.raw)
	switch {
	case r >= 2 && r <= 4 && v <= 4:
		if len(ob) < 32 || len(ub) < 32 {
			return nil, encryptedError("/O of %d bytes and /U of %d bytes, want 32", len(ob), len(ub))
		}
		length, _ := intEntry(enc, "Length", 40)
		n := length / 8
		if r == 2 {
			n = 5
		}
		if c.str == cryptAESV2 || c.stm == cryptAESV2 {
			n = 16
		}
		n = min(max(n, 5), 16)
		p, ok := intEntry(enc, "P", 0)
		if !ok {
			return nil, encryptedError("its /P is no integer")
		}
		opens := func(n int) bool {
			c.key = fileKey(ob[:32], uint32(p), id, r, n, c.metadata)
			return userPassword(c.key, ub, id, r)
		}
		if !opens(n) {
			// Of V 4, the key's length may be the RC4 crypt filter's
			// alone: tried second, so that a file whose key is of the
			// /Encrypt dictionary's length (or 40 bits) opens as it did.
			cn, err := cryptFilterKeyLength(enc, v, c)
			if err != nil {
				return nil, err
			}
			if cn == 0 || cn == n || !opens(cn) {
				return nil, encryptedError("it opens with a user password only")
			}
		}
	case (r == 5 || r == 6) && v == 5:
		ue, _ := enc.get("UE")
		ueb := stringBytes(ue.raw)
		if len(ub) < 48 {
			return nil, encryptedError("/U of %d bytes, want 48", len(ub))
		}
		if len(ueb) < 32 {
			return nil, encryptedError("/UE of %d bytes, want 32", len(ueb))
		}
		if !bytes.Equal(hash2B(nil, ub[32:40], nil, r), ub[:32]) {
			return nil, encryptedError("it opens with a user password only")
		}
		key := hash2B(nil, ub[40:48], nil, r)
		block, _ := aes.NewCipher(key)
		c.key = make([]byte, 32)
		cipher.NewCBCDecrypter(block, make([]byte, aes.BlockSize)).CryptBlocks(c.key, ueb[:32])
		if r == 6 {
			if err := checkPerms(enc, c.key); err != nil {
				return nil, err
			}
		}
	default:
		return nil, encryptedError("/R %d not decrypted", r)
	}
	return c, nil
}

// checkPerms returns an *EncryptedError unless the /Perms of a revision 6
// dictionary enc decrypts under the file key (AES-256 of one block, no
// vector) to bytes 9 to 11 "adb" (ISO 32000-2 §7.6.4.4.12, Algorithm
// 13): a file that fails it is one whose encryption is not understood,
// its key perhaps not the one its strings and streams are encrypted
// with. Its permissions, bytes 0 to 3, are not compared with /P: Sum
// enforces none.
func checkPerms(enc value, key []byte) error {
	pv, _ := enc.get("Perms")
	perms := stringBytes(pv.raw)
	if len(perms) < aes.BlockSize {
		return encryptedError("/Perms of %d bytes, want %d", len(perms), aes.BlockSize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return encryptedError("a file key of %d bytes, want 32", len(key))
	}
	plain := make([]byte, aes.BlockSize)
	block.Decrypt(plain, perms[:aes.BlockSize])
	if string(plain[9:12]) != "adb" {
		return encryptedError("its /Perms does not decrypt to bytes 9 to 11 \"adb\" (ISO 32000-2 Algorithm 13)")
	}
	return nil
}

// intEntry returns the integer value of key in dictionary d, which may be
// negative, or def and false.
func intEntry(d value, key string, def int) (int, bool) {
	v, ok := d.get(key)
	if !ok || v.kind != scalarValue {
		return def, false
	}
	n, err := strconv.ParseInt(string(v.raw), 10, 32)
	if err != nil {
		return def, false
	}
	return int(n), true
}

// cryptFilter returns the method of the crypt filter that /StmF or /StrF
// (key) of a V 4 or 5 dictionary names: /Identity, the default, or one of
// its /CF.
func cryptFilter(enc value, key string) (cryptMethod, error) {
	name, ok := enc.get(key)
	if !ok || name.nameIs("Identity") {
		return cryptNone, nil
	}
	_, f, ok := cryptFilterDict(enc, key)
	if !ok {
		return 0, encryptedError("crypt filter %s not in /CF", excerpt(name.raw))
	}
	cfm, _ := f.get("CFM")
	switch {
	case cfm.nameIs("V2"):
		return cryptRC4, nil
	case cfm.nameIs("AESV2"):
		return cryptAESV2, nil
	case cfm.nameIs("AESV3"):
		return cryptAESV3, nil
	case cfm.nameIs("None") || cfm.raw == nil:
		return cryptNone, nil
	}
	return 0, encryptedError("crypt filter %s not decrypted", excerpt(cfm.raw))
}

// cryptFilterDict returns the name that the entry key (/StmF, /StrF) of
// enc gives, and the dictionary of that crypt filter in its /CF, if any.
func cryptFilterDict(enc value, key string) (name, f value, ok bool) {
	name, _ = enc.get(key)
	cf, _ := enc.get("CF")
	f, ok = cf.get(nameText(name.raw))
	return name, f, ok
}

// cryptFilterKeyLength returns the length in bytes of the key that the
// /Length of the RC4 (/V2) crypt filter of a V 4 dictionary enc gives,
// the one /StmF names or else /StrF, or 0 if there is none: ISO 32000-1
// Table 25 gives it in bits, and the standard security handler's writers
// in bytes, so a value up to 32 is bytes, as readers have it; a length
// that is no key of 40 to 128 bits in steps of 8 is an *EncryptedError.
func cryptFilterKeyLength(enc value, v int, c *decrypter) (int, error) {
	key := "StmF"
	switch {
	case v != 4:
		return 0, nil
	case c.stm == cryptRC4:
	case c.str == cryptRC4:
		key = "StrF"
	default:
		return 0, nil
	}
	name, f, _ := cryptFilterDict(enc, key)
	length, ok := intEntry(f, "Length", 0)
	if !ok {
		return 0, nil
	}
	bits := length
	if length <= 32 {
		bits = length * 8
	}
	if bits < 40 || bits > 128 || bits%8 != 0 {
		return 0, encryptedError("crypt filter %s's /Length %d is no key of 40 to 128 bits in steps of 8", excerpt(name.raw), length)
	}
	return bits / 8, nil
}

// fileKey returns the file key of n bytes of revision r (2 to 4) for the
// empty user password (ISO 32000-1 §7.6.3.3, Algorithm 2).
func fileKey(o []byte, p uint32, id []byte, r, n int, metadata bool) []byte {
	h := md5.New()
	h.Write(padding)
	h.Write(o)
	h.Write(binary.LittleEndian.AppendUint32(nil, p))
	h.Write(id)
	if r >= 4 && !metadata {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	key := h.Sum(nil)
	if r >= 3 {
		for range 50 {
			sum := md5.Sum(key[:n])
			key = sum[:]
		}
	}
	return key[:n]
}

// userPassword reports whether key, the file key of the empty password,
// opens the file: whether it encrypts /U as a reader computes it (ISO
// 32000-1 §7.6.3.4, Algorithms 4 and 5, as Algorithm 6 checks them).
func userPassword(key, u, id []byte, r int) bool {
	if r == 2 {
		out := make([]byte, 32)
		rc4Crypt(key, out, padding)
		return bytes.Equal(out, u[:32])
	}
	h := md5.New()
	h.Write(padding)
	h.Write(id)
	out := h.Sum(nil)
	k := make([]byte, len(key))
	for i := range 20 {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		rc4Crypt(k, out, out)
	}
	return bytes.Equal(out[:16], u[:16])
}

// rc4Crypt writes src encrypted (or decrypted) under key to dst.
func rc4Crypt(key, dst, src []byte) {
	c, _ := rc4.NewCipher(key) // 5 to 16 bytes: never an error
	c.XORKeyStream(dst, src)
}

// hash2B returns the hash of a password, a salt and the user key (nil
// for the user password) of revision 6 (ISO 32000-2 §7.6.4.3.4,
// Algorithm 2.B), or of revision 5 its SHA-256 alone.
func hash2B(password, salt, udata []byte, r int) []byte {
	h := sha256.New()
	h.Write(password)
	h.Write(salt)
	h.Write(udata)
	k := h.Sum(nil)
	if r == 5 {
		return k
	}
	for round := 0; ; {
		seq := append(append(append([]byte(nil), password...), k...), udata...)
		k1 := bytes.Repeat(seq, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, x := range e[:16] {
			sum += int(x) // 256 = 1 mod 3: the bytes' sum is the number's residue
		}
		var hh hash.Hash
		switch sum % 3 {
		case 0:
			hh = sha256.New()
		case 1:
			hh = sha512.New384()
		default:
			hh = sha512.New()
		}
		hh.Write(e)
		k = hh.Sum(nil)
		round++
		if round >= 64 && int(e[len(e)-1]) <= round-32 {
			break
		}
	}
	return k[:32]
}

// decrypt returns data, a string's or a stream's of object num gen,
// decrypted by method m, or false if it does not decrypt (AES data that
// is not whole blocks, or not padded).
func (c *decrypter) decrypt(m cryptMethod, num, gen int, data []byte) ([]byte, bool) {
	switch m {
	case cryptNone:
		return data, true
	case cryptRC4:
		out := make([]byte, len(data))
		rc4Crypt(c.objectKey(num, gen, false), out, data)
		return out, true
	}
	key := c.key
	if m == cryptAESV2 {
		key = c.objectKey(num, gen, true)
	}
	if len(data) < 2*aes.BlockSize || len(data)%aes.BlockSize != 0 {
		return nil, false
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, false
	}
	out := make([]byte, len(data)-aes.BlockSize)
	cipher.NewCBCDecrypter(block, data[:aes.BlockSize]).CryptBlocks(out, data[aes.BlockSize:])
	pad := int(out[len(out)-1])
	if pad < 1 || pad > aes.BlockSize {
		return nil, false
	}
	return out[:len(out)-pad], true
}

// objectKey returns the key of object num gen (ISO 32000-1 §7.6.2,
// Algorithm 1): the file key, the object's number and generation, with
// AES the bytes "sAlT", through MD5, cut to the key's length and 5.
func (c *decrypter) objectKey(num, gen int, aesKey bool) []byte {
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(num), byte(num >> 8), byte(num >> 16), byte(gen), byte(gen >> 8)})
	if aesKey {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(c.key)+5, 16)]
}

// decryptStrings returns v, an object num gen's value, with its strings
// decrypted, each written as a literal string, or false if one does not
// decrypt (it is left as it is). The /Contents of a signature dictionary
// (one with a /ByteRange) is left as it is: it is not encrypted.
func (c *decrypter) decryptStrings(v value, num, gen int) (value, bool) {
	ok := true
	switch v.kind {
	case scalarValue:
		if len(v.raw) > 0 && (v.raw[0] == '(' || v.raw[0] == '<') {
			plain, decrypted := c.decrypt(c.str, num, gen, stringBytes(v.raw))
			if !decrypted {
				return v, false
			}
			v.raw = literalString(plain)
		}
	case arrayValue, dictValue:
		_, signature := v.get("ByteRange")
		items := make([]value, len(v.items))
		for i, it := range v.items {
			if signature && i%2 == 1 && nameText(v.items[i-1].raw) == "Contents" {
				// A signature's (or a document time stamp's) /Contents
				// is in the clear (ISO 32000-1 §7.6.2).
				items[i] = it
				continue
			}
			var itOK bool
			items[i], itOK = c.decryptStrings(it, num, gen)
			ok = ok && itOK
		}
		v.items = items
	}
	return v, ok
}

// literalString returns b as a literal string: (, ) and \ escaped.
func literalString(b []byte) []byte {
	out := make([]byte, 0, len(b)+2)
	out = append(out, '(')
	for _, c := range b {
		if c == '(' || c == ')' || c == '\\' {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return append(out, ')')
}

// stringBytes returns the bytes a string token stands for (ISO 32000-1
// §7.3.4): of a literal string, its escapes read; of a hexadecimal one,
// its digits. Another token is nil.
func stringBytes(raw []byte) []byte {
	if len(raw) < 2 {
		return nil
	}
	switch raw[0] {
	case '<':
		out, _ := asciiHexDecode(raw[1:])
		return out
	case '(':
	default:
		return nil
	}
	s := raw[1 : len(raw)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
			// An end of line in a string is a \n (§7.3.4.2).
			out = append(out, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			continue
		case c != '\\' || i+1 == len(s):
			out = append(out, c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := 0
			for k := 0; k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
				n = n*8 + int(s[i]-'0')
				i++
			}
			i--
			out = append(out, byte(n))
		default:
			out = append(out, c)
		}
	}
	return out
}

// ownCryptFilter reports whether stream dictionary d names a /Crypt
// filter first, which decrypts it by its own parameters: /Identity alone
// (filter.go), a stream in the clear.
func ownCryptFilter(d value) bool {
	f, _ := d.get("Filter")
	if f.kind == arrayValue && len(f.items) > 0 {
		f = f.items[0]
	}
	return f.nameIs("Crypt")
}
