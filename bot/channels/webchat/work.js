/* The little work a page does before it opens a conversation from a busy network
 * (bot/channels/webchat_tickets.py): find a nonce whose SHA-256 of "<challenge>:<nonce>" starts
 * with ``bits`` zero bits. Plain JavaScript, because crypto.subtle exists only on https and the
 * page also works on plain http; done in slices of SLICE_MS, so that the page stays responsive
 * on a cheap phone. The nonce is the try's number in base 36, as the server's own solver. */
(function () {
  "use strict";

  var SLICE_MS = 40;
  var K = new Int32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ]);
  var W = new Int32Array(64);
  var H = new Int32Array(8);

  /* SHA-256 of an ASCII text, into H (eight 32-bit words, big-endian). */
  function sha256(text) {
    var length = text.length;
    var blocks = ((length + 8) >> 6) + 1;
    var words = new Int32Array(blocks * 16);
    for (var i = 0; i < length; i++) words[i >> 2] |= (text.charCodeAt(i) & 0xff) << (24 - (i & 3) * 8);
    words[length >> 2] |= 0x80 << (24 - (length & 3) * 8);
    words[blocks * 16 - 1] = length * 8;
    H[0] = 0x6a09e667; H[1] = 0xbb67ae85; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a;
    H[4] = 0x510e527f; H[5] = 0x9b05688c; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
    for (var b = 0; b < blocks; b++) {
      var t;
      for (t = 0; t < 16; t++) W[t] = words[b * 16 + t];
      for (t = 16; t < 64; t++) {
        var x = W[t - 15], y = W[t - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
      }
      var a = H[0], c1 = H[1], c2 = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
      for (t = 0; t < 64; t++) {
        var sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var t1 = (h + sum1 + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
        var sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var t2 = (sum0 + ((a & c1) ^ (a & c2) ^ (c1 & c2))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c2; c2 = c1; c1 = a; a = (t1 + t2) | 0;
      }
      H[0] = (H[0] + a) | 0; H[1] = (H[1] + c1) | 0; H[2] = (H[2] + c2) | 0; H[3] = (H[3] + d) | 0;
      H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + h) | 0;
    }
    return H;
  }

  /* How many zero bits the hash in H starts with. */
  function zeroBits(hash) {
    for (var i = 0; i < 8; i++) {
      if (hash[i] !== 0) return i * 32 + Math.clz32(hash[i]);
    }
    return 256;
  }

  /* A promise of the nonce that answers the challenge. */
  function solve(challenge, bits) {
    var prefix = challenge + ":";
    var tries = 0;
    return new Promise(function (resolve) {
      function slice() {
        var until = Date.now() + SLICE_MS;
        do {
          for (var n = 0; n < 256; n++, tries++) {
            var nonce = tries.toString(36);
            if (zeroBits(sha256(prefix + nonce)) >= bits) {
              resolve(nonce);
              return;
            }
          }
        } while (Date.now() < until);
        window.setTimeout(slice, 0);
      }
      slice();
    });
  }

  window.webchatWork = { solve: solve, sha256: sha256 };
}());
