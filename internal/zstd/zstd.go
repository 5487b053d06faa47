// Package zstd is the body codec of the warehouse (vigil.BodyCodec) on
// github.com/klauspost/compress/zstd.
//
// A body is compressed as one zstd frame. A patch of a target body against
// a base body is a zstd frame of the target compressed with the base as a
// raw dictionary (zstd's "raw content" dictionaries): every run the two
// share becomes a back-reference into the base, so a page that changed 1 %
// costs about 1 % of its compressed size, and decoding is zstd decoding,
// byte exact. The window is set to cover base and target together, and
// past a few MB the patch is encoded at a level whose tables index it
// (largePatchWindow).
package zstd

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/vigil-web/vigil"
)

// dictID names the raw dictionary in patch frames. It carries no meaning:
// the base is always given by the caller.
const dictID = 0x5649 // "VI"

// Codec implements vigil.BodyCodec. The zero value is not usable; call New.
type Codec struct {
	level   zstd.EncoderLevel
	patch   zstd.EncoderLevel
	enc     *zstd.Encoder
	fast    *zstd.Encoder
	decPool sync.Pool
	// patchDecPool holds decoders reused with a new dictionary.
	patchDecPool sync.Pool

	mu    sync.Mutex
	pools map[int]*sync.Pool // patch encoders by window size
}

var _ vigil.BodyCodec = (*Codec)(nil)

// Level is a compression level: 1 fastest, 2 default, 3 better, 4 best.
type Level int

// New returns a codec compressing bodies at level (0 means the default,
// 2). Patches are encoded at level 1 (patchLevel) up to a few MB: the
// dictionary (the base body) is indexed afresh for every patch, which the
// fastest level does several times faster, and patches of small changes
// come out nearly as small.
func New(level Level) (*Codec, error) {
	l := zstd.SpeedDefault
	if level > 0 {
		l = zstd.EncoderLevelFromZstd(map[Level]int{1: 1, 2: 3, 3: 7, 4: 19}[level])
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	fast, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return &Codec{level: l, patch: zstd.SpeedFastest, enc: enc, fast: fast}, nil
}

// Compress implements vigil.BodyCodec.
func (c *Codec) Compress(body []byte) ([]byte, error) {
	return c.enc.EncodeAll(body, make([]byte, 0, len(body)/3+64)), nil
}

// CompressFast implements vigil.BodyCodec: zstd level 1.
func (c *Codec) CompressFast(body []byte) ([]byte, error) {
	return c.fast.EncodeAll(body, make([]byte, 0, len(body)/3+64)), nil
}

// errEmpty is the error for zero bytes given to decode: every frame
// Compress, CompressFast and Diff write has a header, even of an empty
// body, so a stored body or patch of zero bytes was truncated or lost.
// zstd decodes zero bytes as zero frames, an empty body, which would let
// a lost body read as an empty page.
const errEmpty = "empty input, no zstd frame (every stored body has one, even an empty body's)"

// Decompress implements vigil.BodyCodec. It refuses zero bytes, which no
// Compress writes.
func (c *Codec) Decompress(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("zstd: decompress: %s", errEmpty)
	}
	d, _ := c.decPool.Get().(*zstd.Decoder)
	if d == nil {
		var err error
		d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, err
		}
	}
	defer c.decPool.Put(d)
	out, err := d.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("zstd: decompress: %w", err)
	}
	return out, nil
}

// window returns a window size covering n bytes (a power of two, at least
// zstd's minimum).
func window(n int) int {
	w := zstd.MinWindowSize
	for w < n && w < zstd.MaxWindowSize {
		w *= 2
	}
	return w
}

// Diff implements vigil.BodyCodec.
func (c *Codec) Diff(base, target []byte) ([]byte, error) {
	if len(base) == 0 {
		return c.Compress(target)
	}
	win := window(len(base) + len(target))
	// Encoders are reused with a new dictionary (ResetWithOptions), which
	// saves allocating their tables for every patch; one per window size,
	// which sets the level too (patchLevel).
	pool := c.patchPool(win)
	enc, _ := pool.Get().(*zstd.Encoder)
	var err error
	if enc == nil {
		enc, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(c.patchLevel(win)), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(win), zstd.WithEncoderDictRaw(dictID, base))
	} else {
		err = enc.ResetWithOptions(nil, zstd.WithEncoderDictRaw(dictID, base))
	}
	if err != nil {
		return nil, fmt.Errorf("zstd: diff: %w", err)
	}
	out := enc.EncodeAll(target, nil)
	// Drop the reference to base before pooling.
	if err := enc.ResetWithOptions(nil, zstd.WithEncoderDictRaw(dictID, []byte{0})); err == nil {
		pool.Put(enc)
	}
	return out, nil
}

// largePatchWindow is the largest window (base and target together)
// whose patches are encoded at the codec's patch level, the fastest.
// Its hash table keeps one position of the base in many past a few MB,
// so that a patch of a large page found few of the runs it shares with
// its base: 1.2 MB against 2.1 MB compressed for a page of 10 MB that
// changed 1 %, 4.5 MB against 4.2 MB for one of 20 MB, a full copy a
// version. Larger windows are encoded at SpeedBetterCompression, whose
// tables index them (a few KB; a write 1.5x as long as at the fastest).
const largePatchWindow = 4 << 20

// patchLevel returns the level of patches of window win.
func (c *Codec) patchLevel(win int) zstd.EncoderLevel {
	if win > largePatchWindow {
		return zstd.SpeedBetterCompression
	}
	return c.patch
}

func (c *Codec) patchPool(win int) *sync.Pool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pools == nil {
		c.pools = map[int]*sync.Pool{}
	}
	p := c.pools[win]
	if p == nil {
		p = &sync.Pool{}
		c.pools[win] = p
	}
	return p
}

// Patch implements vigil.BodyCodec. It refuses a patch of zero bytes,
// which no Diff writes.
func (c *Codec) Patch(base, patch []byte) ([]byte, error) {
	if len(patch) == 0 {
		return nil, fmt.Errorf("zstd: patch: %s", errEmpty)
	}
	if len(base) == 0 {
		return c.Decompress(patch)
	}
	dec, _ := c.patchDecPool.Get().(*zstd.Decoder)
	var err error
	if dec == nil {
		dec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30),
			zstd.WithDecoderMaxWindow(uint64(zstd.MaxWindowSize)), zstd.WithDecoderDictRaw(dictID, base))
	} else {
		err = dec.ResetWithOptions(nil, zstd.WithDecoderDictRaw(dictID, base))
	}
	if err != nil {
		return nil, fmt.Errorf("zstd: patch: %w", err)
	}
	out, err := dec.DecodeAll(patch, nil)
	if err != nil {
		dec.Close()
		return nil, fmt.Errorf("zstd: patch: %w", err)
	}
	if dec.ResetWithOptions(nil, zstd.WithDecoderDictRaw(dictID, []byte{0})) == nil {
		c.patchDecPool.Put(dec)
	}
	return out, nil
}
