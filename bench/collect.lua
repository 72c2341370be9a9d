-- wrk script of bench/ingest: realistic tracker events through the trusted relay. Each visitor
-- (its own address) makes a session of four events, three pageviews and an engage; visitors
-- interleave as on a busy site. Settings come from the environment (see bench/ingest.ts).
local site = os.getenv("BENCH_SITE")
local relay = os.getenv("BENCH_RELAY_KEY")
local domain = os.getenv("BENCH_DOMAIN")
-- Concurrent generators each start from a visitor base of their own, so that no visitor is shared.
local base = tonumber(os.getenv("BENCH_VISITOR_BASE") or "0")
local uas = {
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
}

-- BENCH_RATE (requests a second, every connection of a wrk thread together: bench/processes.ts runs
-- one thread) paces the requests: each takes the next slot of one schedule before it is sent (wrk
-- calls delay() before every request, and waits whole milliseconds), so the rate holds whatever the
-- latency, and a slot a slow answer made the connections miss is not made up in a burst. Latency
-- counts from the send. LuaJIT's FFI reads the monotonic clock.
local rate = tonumber(os.getenv("BENCH_RATE") or "")
if rate then
  local ffi = require("ffi")
  ffi.cdef[[
    typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
    int clock_gettime(int clock, bench_timespec *now);
  ]]
  local clock, interval, slot = ffi.new("bench_timespec"), 1000 / rate, 0
  function delay()
    ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC
    local now = tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
    slot = math.max(slot + interval, now)
    return slot - now
  end
end

local threads = {}
local counter = 0

function setup(thread)
  thread:set("first", base + #threads * 10000000)
  table.insert(threads, thread)
end

function init(args)
  counter = first
  statuses = {}
end

function request()
  counter = counter + 1
  local n = counter
  local visitor = math.floor(n / 4)
  local step = n % 4
  -- The /24 changes fastest, so no network exceeds the per-network rate limit.
  local ip = string.format("81.%d.%d.%d", visitor % 256, math.floor(visitor / 256) % 256, math.floor(visitor / 65536) % 256 + 1)
  local page = string.format("/blog/post-%d", math.floor((((visitor * 7 + step) % 997) / 997) ^ 3 * 200))
  local body
  if step == 2 then
    body = string.format('{"s":"%s","u":"%s","e":"engage","p":{"t":12000,"d":60}}', site, page)
  else
    body = string.format('{"s":"%s","u":"%s?utm_source=bench","r":"https://www.google.com/","w":1440,"l":"en-US"}', site, page)
  end
  return wrk.format("POST", "/api/e", {
    ["content-type"] = "text/plain",
    ["origin"] = "https://" .. domain,
    ["user-agent"] = uas[visitor % #uas + 1],
    ["x-svc-relay-key"] = relay,
    ["x-svc-client-ip"] = ip,
  }, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local answered = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      answered[status] = (answered[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(answered) do table.insert(parts, string.format('"%d":%d', status, count)) end
  io.write(string.format('BENCH_RESULT {"requests":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f,"socketErrors":%d,"statuses":{%s}}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, table.concat(parts, ",")))
end
