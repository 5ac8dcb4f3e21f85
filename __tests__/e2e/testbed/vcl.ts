/**
 * The VCL of the test bed's Varnish (7.1, with vmods xkey and purge from varnish-modules).
 *
 * Content (GET/HEAD): cached by URL only (the action's PURGE carries the Varnish address as host);
 * `X-Cache` tells how it was served: `MISS`, `HIT`, or `HIT-STALE` (expired, served in grace while
 * a background fetch revalidates it). `Surrogate-Key` from the origin becomes the object's `xkey`.
 * A 404 or 410 is cached for an hour, without grace, as CDNs cache errors (not Varnish's default
 * 2 minutes, nor a lifetime the origin gives; `no-store` or `private` still keep it out): a file
 * asked for before it was uploaded stays missing at the edge until it is purged.
 *
 * From 127.0.0.1/::1 only (ACL `purgers`; anyone else gets 403):
 * - `PURGE <path>`: the spec's per-URL purge, hard (`purge.hard()`), or soft with
 *   `Edge-Soft-Purge: 1` (`purge.soft()`: TTL 0, grace and keep kept), answered 200
 *   `{"status":"ok","id":"<vxid>-<epoch>-<objects>"}`.
 * - `XKEY /` with `xkey-purge: <key>` or `xkey-softpurge: <key>`: `xkey.purge()`/`xkey.softpurge()`,
 *   used by the management API (which parses the JSON the VCL cannot). Same answer shape.
 * - `BAN /`: bans every object (`std.ban("obj.status != 0")`), the management API's purge-all.
 * Every answer also says how many objects were invalidated: `X-Purged` and `"purged"`.
 */
export function renderVcl({ originPort }: { originPort: number }): string {
  return `vcl 4.1;

import std;
import xkey;
import purge;

backend origin {
  .host = "127.0.0.1";
  .port = "${originPort}";
}

acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  unset req.http.x-cache;
  unset req.http.x-purged;
  if (req.method == "PURGE" || req.method == "XKEY" || req.method == "BAN" || req.url ~ "^/__testbed/") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
  }
  if (req.url == "/__testbed/ready") {
    return (synth(200, "Ready"));
  }
  if (req.method == "XKEY") {
    if (req.http.xkey-purge) {
      set req.http.x-purged = xkey.purge(req.http.xkey-purge);
    } elsif (req.http.xkey-softpurge) {
      set req.http.x-purged = xkey.softpurge(req.http.xkey-softpurge);
    } else {
      return (synth(400, "XKEY needs an xkey-purge or xkey-softpurge header"));
    }
    return (synth(200, "Purged"));
  }
  if (req.method == "BAN") {
    if (std.ban("obj.status != 0")) {
      set req.http.x-purged = "0";
      return (synth(200, "Banned"));
    }
    return (synth(500, std.ban_error()));
  }
  if (req.method == "PURGE") {
    if (req.http.Edge-Soft-Purge && req.http.Edge-Soft-Purge != "1") {
      return (synth(400, "Edge-Soft-Purge must be 1"));
    }
    return (hash);
  }
}

sub vcl_hash {
  hash_data(req.url);
  return (lookup);
}

sub edge_url_purge {
  if (req.http.Edge-Soft-Purge == "1") {
    set req.http.x-purged = purge.soft();
  } else {
    set req.http.x-purged = purge.hard();
  }
  return (synth(200, "Purged"));
}

sub vcl_hit {
  if (req.method == "PURGE") {
    call edge_url_purge;
  }
  if (obj.ttl >= 0s) {
    set req.http.x-cache = "HIT";
  } else {
    set req.http.x-cache = "HIT-STALE";
  }
}

sub vcl_miss {
  if (req.method == "PURGE") {
    call edge_url_purge;
  }
  set req.http.x-cache = "MISS";
}

sub vcl_pass {
  set req.http.x-cache = "PASS";
}

sub vcl_backend_fetch {
  unset bereq.http.x-cache;
}

sub vcl_backend_response {
  if (beresp.http.Surrogate-Key) {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
  }
  set beresp.keep = 1h;
  if (beresp.status == 404 || beresp.status == 410) {
    set beresp.ttl = 1h;
    set beresp.grace = 0s;
  }
}

sub vcl_deliver {
  unset resp.http.xkey;
  set resp.http.X-Cache = req.http.x-cache;
}

sub vcl_synth {
  set resp.http.Content-Type = "application/json";
  if (resp.status == 200 && req.http.x-purged) {
    set resp.http.X-Purged = req.http.x-purged;
    set resp.body = {"{"status":"ok","id":""} + req.xid + "-" + std.time2integer(now, 0) + "-" +
      req.http.x-purged + {"","purged":"} + req.http.x-purged + "}";
  } else {
    set resp.body = {"{"msg":""} + resp.reason + {"""} + "}";
  }
  return (deliver);
}
`
}
