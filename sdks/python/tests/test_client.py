"""The Python SDK against a real Trawl server: every method once, the waiters, pagination, the crawl
stream resumed after dropped connections, each error class, a retry after a 429, webhook
verification, and the drift check against /openapi.json. The world (server, fixture site, keys)
comes from sdks/harness.ts as JSON in TRAWL_SDK_TEST_ENV; run through `bun test sdks`."""
import base64
import json
import os
import sys
import time
import unittest
import urllib.request
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import trawl  # noqa: E402
from trawl import (AuthenticationError, ConflictError, InsufficientCreditsError, NotFoundError, PermissionDeniedError,  # noqa: E402
                   RateLimitError, Trawl, UnprocessableError, WaitTimeoutError, WebhookVerificationError, sign_webhook, verify_webhook)

if "TRAWL_SDK_TEST_ENV" not in os.environ:
    raise SystemExit("TRAWL_SDK_TEST_ENV is not set: run these tests through `bun test sdks` (sdks/languages.test.ts)")
ENV = json.loads(os.environ["TRAWL_SDK_TEST_ENV"])
REPO = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def site(path):
    return ENV["site"] + path


def client(key="main", url="url", **options):
    return Trawl(ENV[url], ENV["keys"][key] if key in ENV["keys"] else key, backoff=0.02, **options)


class SdkTest(unittest.TestCase):
    def setUp(self):
        self.trawl = client()

    def test_drift_and_version(self):
        with urllib.request.urlopen(ENV["url"] + "/openapi.json") as response:
            doc = json.load(response)
        documented = sorted(f"{m.upper()} {p}" for p, ops in doc["paths"].items() if p.startswith("/v1/") or p == "/health" for m in ops)
        self.assertEqual(sorted(trawl.ENDPOINTS), documented)
        with open(os.path.join(REPO, "package.json")) as f:
            version = json.load(f)["version"]
        self.assertEqual(trawl.__version__, version)
        with open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml")) as f:
            self.assertIn(f'version = "{version}"', f.read())

    def test_environment_variables(self):
        os.environ["TRAWL_API_URL"], os.environ["TRAWL_API_KEY"] = ENV["url"], ENV["keys"]["main"]
        try:
            self.assertTrue(Trawl().plugins()["plugins"])
        finally:
            del os.environ["TRAWL_API_URL"], os.environ["TRAWL_API_KEY"]

    def test_one_shot_endpoints(self):
        t = self.trawl
        self.assertIn("status", t.health())
        self.assertIn("Page a", t.scrape(site("/a"), formats=["markdown", "links"])["markdown"])
        self.assertTrue(t.map(site("/"))["links"])
        self.assertIn(site("/a"), json.dumps(t.search("sea")))
        schema = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}
        self.assertEqual(t.extract(site("/a"), schema=schema)["data"], {"title": "Tides"})
        self.assertEqual(t.summarize(site("/a"))["summary"], "Tides")
        self.assertIn("hello@example.com", json.dumps(t.lead(site("/"))))
        self.assertIsInstance(t.brand(site("/")), dict)
        self.assertIsInstance(t.diff(site("/b")), dict)
        self.assertIn("/api/v2/orders", [e["value"] for e in t.endpoints(site("/api"))["endpoints"]])

    def test_crawl(self):
        t = self.trawl
        done = t.crawl(site("/"), max_pages=4, poll_interval=0.05, timeout=20)
        self.assertEqual((done["status"], done["completed"]), ("completed", 4))
        pages = sorted(p["url"] for p in t.iter_crawl_pages(done["id"], limit=1))
        self.assertEqual(pages, sorted(site(p) for p in ["/", "/a", "/b", "/c"]))
        second = t.crawl_pages(done["id"], limit=2, offset=2)
        self.assertEqual((second["total"], second["limit"], second["offset"], "next" in second), (4, 2, 2, False))
        self.assertEqual(t.crawl_pages(done["id"], page=2, per_page=2)["data"], second["data"])
        self.assertEqual(t.crawl_pages(done["id"], status="failed")["total"], 0)
        self.assertIn(done["id"], [c["id"] for c in t.crawl_history()["crawls"]])
        events = list(client(url="cuttingUrl").stream_crawl(done["id"]))
        self.assertEqual([e["id"] for e in events if e["event"] == "page"], [1, 2, 3, 4])
        self.assertEqual((events[-1]["event"], events[-1]["data"]["status"]), ("end", "completed"))
        self.assertEqual([e["id"] for e in t.stream_crawl(done["id"], last_event_id=2)], [3, 4, None])
        retried = t.retry_crawl(done["id"])
        self.assertNotEqual(retried["id"], done["id"])
        t.wait_for_crawl(retried["id"], poll_interval=0.05, timeout=20)
        with self.assertRaises(ConflictError) as caught:
            t.cancel_crawl(done["id"])
        self.assertEqual(caught.exception.status, 409)
        slow = t.start_crawl(site("/slow"))
        with self.assertRaises(WaitTimeoutError):
            t.wait_for_crawl(slow["id"], poll_interval=0.001, timeout=0)
        self.assertEqual(t.cancel_crawl(slow["id"])["status"], "cancelled")

    def test_batches(self):
        t = self.trawl
        batch = t.batch([site("/a"), site("/b")], poll_interval=0.05, timeout=20)
        self.assertEqual((batch["status"], batch["completed"]), ("completed", 2))
        self.assertEqual(len(t.get_batch(batch["id"])["data"]), 2)
        self.assertEqual([e["event"] for e in t.stream_batch(batch["id"])], ["page", "page", "end"])
        with self.assertRaises(ConflictError):
            t.cancel_batch(batch["id"])
        leads = t.start_lead_batch([site("/"), site("/a")])
        finished = t.wait_for_lead_batch(leads["id"], poll_interval=0.05, timeout=20)
        self.assertEqual((finished["status"], finished["total"]), ("completed", 2))

    def test_webhooks_and_watches(self):
        t = self.trawl
        hook = t.create_webhook(site("/hook"), ["crawl.completed"])
        self.assertTrue(hook["secret"].startswith("whsec_"))
        self.assertIn(hook["id"], [w["id"] for w in t.list_webhooks()["webhooks"]])
        self.assertEqual(t.get_webhook(hook["id"])["url"], site("/hook"))
        self.assertFalse(t.update_webhook(hook["id"], active=False)["active"])
        self.assertEqual(t.webhook_deliveries(hook["id"])["total"], 0)
        t.delete_webhook(hook["id"])
        with self.assertRaises(NotFoundError):
            t.get_webhook(hook["id"])
        watch = t.create_watch(site("/c"), name="c", ignore_patterns=["clock"], trigger_text=["sea"], tags=["docs"])
        self.assertEqual((watch["ignore_patterns"], watch["trigger_text"], watch["tags"], watch["state"]), (["clock"], ["sea"], ["docs"], "new"))
        self.assertIn(watch["id"], [w["id"] for w in t.list_watches()["watches"]])
        self.assertEqual(t.update_watch(watch["id"], name="page c")["name"], "page c")
        t.check_watch(watch["id"])
        deadline = time.monotonic() + 10
        while len(t.get_watch(watch["id"]).get("snapshots") or []) < 2:
            self.assertLess(time.monotonic(), deadline, "the manual check made no snapshot")
            time.sleep(0.03)
        self.assertIsInstance(t.get_watch(watch["id"])["snapshots"][0]["notified"], bool)
        self.assertIsInstance(t.watch_diff(watch["id"]), dict)
        t.delete_watch(watch["id"])

    def test_account_and_keys(self):
        t = client("account")  # its own workspace: keys change here, and main's per-minute budget stays the other tests'
        account = t.account()
        self.assertEqual((account["mode"], account["role"], account["plan"]), ("cloud", "admin", "starter"))
        self.assertIsInstance(account["balance"], int)
        created = t.create_key("ci", "member")
        self.assertTrue(created["key"].startswith("trawl_"))
        self.assertEqual((created["name"], created["role"], created["suffix"], created["revoked_at"]), ("ci", "member", created["key"][-4:], None))
        listed = list(t.iter_keys(limit=1))
        mine = [k for k in listed if k["id"] == created["id"]]
        self.assertEqual([(k["name"], k["role"]) for k in mine], [("ci", "member")])
        self.assertTrue(any(k["current"] for k in listed))
        self.assertFalse(any("key" in k for k in listed))
        self.assertEqual(t.rename_key(created["id"], "deploys")["name"], "deploys")
        member = client(created["key"])
        self.assertEqual((member.account()["role"], member.account()["balance"]), ("member", None))
        with self.assertRaises(PermissionDeniedError):
            member.list_keys()
        revoked = t.revoke_key(created["id"])
        self.assertEqual((revoked["success"], revoked["id"], revoked["name"]), (True, created["id"], "deploys"))
        self.assertIsNotNone(revoked["revoked_at"])
        with self.assertRaises(AuthenticationError):
            member.account()
        self.assertNotIn(created["id"], [k["id"] for k in t.list_keys()["keys"]])

    def test_watch_feed_token(self):
        t = client("account")
        token = t.create_feed_token()
        self.assertTrue(token["token"].startswith("trawl_feed_"))
        self.assertTrue(token["feed_url"].endswith("/v1/watch/feed.atom?token=" + token["token"]))
        self.assertEqual(t.get_feed_token(), {"active": True, "created_at": token["created_at"]})
        reader = client("")  # no API key: the token alone opens the feed, as in a feed reader
        self.assertIn('<feed xmlns="http://www.w3.org/2005/Atom">', reader.watch_feed(token["token"]))
        with self.assertRaises(AuthenticationError):
            reader.watch_feed("trawl_feed_wrong")
        self.assertEqual(t.revoke_feed_token(), {"success": True})
        self.assertEqual(t.get_feed_token(), {"active": False, "created_at": None})
        with self.assertRaises(AuthenticationError):
            reader.watch_feed(token["token"])
        with self.assertRaises(NotFoundError):
            t.revoke_feed_token()

    def test_social(self):
        t = self.trawl
        monitor = t.create_social_monitor("profile", "harbour")
        self.assertIn(monitor["id"], [m["id"] for m in t.list_social_monitors()["monitors"]])
        walked = [m["id"] for m in t.iter_social_monitors(limit=1)]
        self.assertEqual(len(walked), t.list_social_monitors(limit=1)["total"])
        self.assertIn(monitor["id"], walked)
        self.assertEqual(t.update_social_monitor(monitor["id"], name="harbour posts"), {"success": True})
        self.assertEqual(t.get_social_monitor(monitor["id"])["name"], "harbour posts")
        self.assertEqual(t.check_social_monitor(monitor["id"])["status"], "checking")
        t.delete_social_monitor(monitor["id"])
        with self.assertRaises(NotFoundError):
            t.get_social_monitor(monitor["id"])
        first = t.audience("harbour", max_pages=1)
        self.assertEqual((first["user_id"], first["count"]), ("42", 1000))
        self.assertEqual(len({u["id"] for u in t.iter_audience("harbour", max_pages=1)}), 2500)

    def test_results_and_usage(self):
        t = self.trawl
        t.scrape(site("/b"))
        results = list(t.iter_results(per_page=1))
        self.assertGreater(len(results), 1)
        self.assertEqual(t.get_result(results[0]["id"])["id"], results[0]["id"])
        self.assertEqual(t.cache_lookup("scrape", site("/b"))["url"], site("/b"))
        runs = t.usage(per_page=5)["runs"]
        run = next(r for r in runs if r["endpoint"] == "scrape")
        self.assertEqual(t.run_result(run["id"])["endpoint"], "scrape")

    def test_errors(self):
        cases = [
            (lambda: client("trawl_wrong").usage(), AuthenticationError, 401),
            (lambda: client("broke").scrape(site("/a")), InsufficientCreditsError, 402),
            (lambda: client("lapsed").scrape(site("/a")), PermissionDeniedError, 403),
            (lambda: self.trawl.get_crawl("00000000-0000-4000-8000-000000000000"), NotFoundError, 404),
            (lambda: self.trawl.scrape("http://127.0.0.1:1/gone"), UnprocessableError, 422),
        ]
        for call, cls, status in cases:
            with self.assertRaises(cls) as caught:
                call()
            self.assertEqual(caught.exception.status, status)
            self.assertGreater(len(str(caught.exception)), 3)
        limited = client("limited", max_retries=0)

        def attempt(_):
            try:
                limited.usage()
            except RateLimitError as err:
                return err
        with ThreadPoolExecutor(3) as pool:
            refused = [e for e in pool.map(attempt, range(3)) if e]
        self.assertTrue(refused)
        self.assertGreaterEqual(refused[0].retry_after, 0)

    def test_retry_after_429(self):
        started = time.monotonic()
        self.assertIn("Page a", client(url="flakyUrl").scrape(site("/a"))["markdown"])
        self.assertGreaterEqual(time.monotonic() - started, 0.9)
        with self.assertRaises(RateLimitError):
            client(url="flakyUrl", max_retries=0).health()

    def test_webhook_verification(self):
        secret = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
        now = int(time.time())
        body = '{"type":"crawl.completed"}'
        headers = {"Webhook-Id": "msg_1", "Webhook-Timestamp": str(now), "Webhook-Signature": "v1,bogus " + sign_webhook(secret, "msg_1", now, body)}
        self.assertEqual(verify_webhook(secret, body, headers), {"type": "crawl.completed"})
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(secret, body + " ", headers)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(secret, body, {**headers, "Webhook-Timestamp": str(now - 3600)})


if __name__ == "__main__":
    unittest.main()
