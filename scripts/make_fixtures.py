#!/usr/bin/env python3
"""Generate PostFeed's fixture backend data: Fixtures/posts.json and Fixtures/images/.

Deterministic: every choice comes from one seeded random.Random, so running the script
twice gives the same posts.json byte for byte and the same pixels in every image
(encoded image bytes can differ only between Pillow/libjpeg/zlib versions).

Requires Pillow:   pip install pillow
Usage:             python3 scripts/make_fixtures.py [--out Fixtures] [--seed 20240501]

It deletes and rewrites <out>/images/ and <out>/posts.json; nothing else is touched.
"""

import argparse
import datetime as dt
import json
import random
import shutil
import sys
from pathlib import Path

try:
    from PIL import Image, ImageDraw, ImageFilter
except ImportError:  # pragma: no cover - guidance for a missing dependency
    sys.exit("make_fixtures.py needs Pillow: run `pip install pillow` and try again.")

POST_COUNT = 247          # 13 pages of 20; the last page is short (7 posts)
IMAGE_COUNT = 72
POSTS_WITHOUT_IMAGE = (5, 58, 133, 201)
MIN_IMAGE_BYTES = 5 * 1024
MAX_IMAGE_BYTES = 300 * 1024
NEWEST = dt.datetime(2025, 5, 30, 18, 0, 0, tzinfo=dt.timezone.utc)
OLDEST = NEWEST - dt.timedelta(days=730)

AUTHORS = [
    "Amara Okafor", "Lukas Brandt", "Sofia Marquez", "Hiroshi Tanaka", "Priya Raman",
    "Owen Gallagher", "Ingrid Solberg", "Mateo Rossi", "Chloé Dubois", "Tomasz Nowak",
    "Leila Haddad", "Ethan Brooks", "Nadia Petrova", "Kwame Mensah", "Elena Vasquez",
    "Jonas Lindqvist", "Mei Lin", "Rafael Costa", "Hannah Fischer", "Arjun Mehta",
    "Zoë Campbell", "Dmitri Volkov", "Aisha Bello", "Felix Wagner", "Camila Torres",
    "Noah Bennett", "Yuki Sato", "Sven Eriksen", "Grace Liu", "Oliver Hartmann",
]

ADJECTIVES = [
    "Quiet", "Practical", "Unexpected", "Slow", "Careful", "Honest", "Small", "Patient",
    "Stubborn", "Forgotten", "Reliable", "Curious", "Gentle", "Brutal", "Simple", "Hidden",
]
NOUNS = [
    "caches", "cold starts", "sourdough", "night trains", "mechanical keyboards", "tide pools",
    "retry loops", "city gardens", "old maps", "film cameras", "long walks", "field notes",
    "lighthouses", "bike repairs", "pagination", "espresso", "winter light", "open data",
    "river swimming", "code reviews", "moss", "bookbinding", "radio towers", "allotments",
]
PLACES = [
    "Lisbon", "the Lake District", "Kyoto", "a small harbour town", "the night shift",
    "Reykjavik", "a rented attic", "the Alps", "Marseille", "a flooded basement",
    "the last train home", "Tallinn", "a borrowed kitchen", "the Atacama",
]
VERBS = ["rebuilt", "measured", "broke", "rediscovered", "simplified", "documented", "tested", "abandoned"]
TITLE_TEMPLATES = [
    "{Adj} {noun} in {place}",
    "How we {verb} our {noun}",
    "Notes on {noun}",
    "{n} lessons from {noun}",
    "Why {noun} matter more than {noun2}",
    "A weekend of {noun} in {place}",
    "What {noun} taught me about {noun2}",
    "The case for {adj} {noun}",
    "{Adj} thoughts on {noun}",
    "Field guide: {noun} and {noun2}",
    "I {verb} my {noun} and here is what happened",
    "Letters from {place}",
]
SENTENCES = [
    "It started, as these things often do, with a question nobody could answer.",
    "We measured everything twice and still got it wrong the first time.",
    "The light in {place} changes every few minutes, which makes planning pointless.",
    "{Author} kept a notebook of every failure, and it turned out to be the most useful thing we wrote.",
    "Most of the work was waiting, and the waiting was the interesting part.",
    "There is a version of {noun} that only makes sense at three in the morning.",
    "By the second week we had stopped arguing about {noun2} and started listening.",
    "Nothing here is new; it is simply written down in one place.",
    "The numbers were small but they were honest.",
    "If you try this yourself, start smaller than you think you need to.",
    "We threw away the first draft, then the second, and kept the third out of spite.",
    "A neighbour asked what we were doing, and we could not explain it in one sentence.",
    "The best tools were the ones we already had.",
    "Somewhere between {place} and home, the plan quietly changed.",
    "It rained for nine days straight, which helped more than it hurt.",
    "{noun_cap} reward patience, and punish shortcuts with remarkable precision.",
    "In the end the fix was one line, but finding that line took a month.",
    "We left a few rough edges on purpose, so the next person knows where to start.",
    "The old instructions were wrong in a way that was almost charming.",
    "Every answer raised two more questions, which is how you know you are close.",
]


def make_title(rng: random.Random, used: set) -> str:
    while True:
        template = rng.choice(TITLE_TEMPLATES)
        noun, noun2 = rng.sample(NOUNS, 2)
        adj = rng.choice(ADJECTIVES)
        title = template.format(
            Adj=adj, adj=adj.lower(), noun=noun, noun2=noun2, place=rng.choice(PLACES),
            verb=rng.choice(VERBS), n=rng.randint(3, 12),
        )
        title = title[0].upper() + title[1:]
        if title not in used:
            used.add(title)
            return title


def make_body(rng: random.Random, author: str) -> str:
    paragraphs = []
    for _ in range(rng.randint(1, 3)):
        sentences = []
        for template in rng.sample(SENTENCES, rng.randint(2, 5)):
            noun, noun2 = rng.sample(NOUNS, 2)
            sentences.append(template.format(
                place=rng.choice(PLACES), Author=author.split()[0], noun=noun, noun2=noun2,
                noun_cap=noun[0].upper() + noun[1:],
            ))
        paragraphs.append(" ".join(sentences))
    return "\n\n".join(paragraphs)


def make_dates(rng: random.Random, count: int) -> list:
    """Strictly decreasing timestamps from NEWEST to about OLDEST: id 1 is the newest post."""
    span = (NEWEST - OLDEST).total_seconds()
    gaps = [rng.uniform(0.2, 1.8) for _ in range(count - 1)]
    scale = span / sum(gaps)
    dates, current = [NEWEST], NEWEST
    for gap in gaps:
        current -= dt.timedelta(seconds=int(gap * scale))
        dates.append(current)
    return [d.strftime("%Y-%m-%dT%H:%M:%SZ") for d in dates]


# MARK: images

SIZES = [(320, 240), (400, 300), (480, 360), (640, 480), (800, 600), (960, 720),
         (1024, 768), (1200, 900), (1280, 960), (1600, 1200), (600, 600), (720, 1280)]


def random_color(rng: random.Random) -> tuple:
    return (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))


def render(rng: random.Random, size: tuple, noise: int) -> Image.Image:
    width, height = size
    top, bottom = random_color(rng), random_color(rng)
    gradient = Image.linear_gradient("L").resize((width, height)).rotate(rng.choice([0, 90, 180, 270]), expand=False)
    image = Image.composite(Image.new("RGB", size, top), Image.new("RGB", size, bottom), gradient)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(6, 22)):
        x0, y0 = rng.randint(-width // 4, width), rng.randint(-height // 4, height)
        x1, y1 = x0 + rng.randint(width // 12, width // 2), y0 + rng.randint(height // 12, height // 2)
        kind = rng.choice(["ellipse", "rectangle", "polygon", "line"])
        colour = random_color(rng)
        if kind == "ellipse":
            draw.ellipse((x0, y0, x1, y1), fill=colour, outline=random_color(rng), width=rng.randint(1, 6))
        elif kind == "rectangle":
            draw.rectangle((x0, y0, x1, y1), fill=colour)
        elif kind == "polygon":
            points = [(rng.randint(0, width), rng.randint(0, height)) for _ in range(rng.randint(3, 7))]
            draw.polygon(points, fill=colour)
        else:
            draw.line((x0, y0, x1, y1), fill=colour, width=rng.randint(2, 24))
    if rng.random() < 0.3:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(1, 4)))
    if noise > 0:
        grain = Image.frombytes("L", size, rng.randbytes(width * height)).convert("RGB")
        image = Image.blend(image, grain, noise / 100)
    return image


def encode(image: Image.Image, fmt: str, quality: int) -> bytes:
    from io import BytesIO
    buffer = BytesIO()
    if fmt == "jpg":
        image.save(buffer, "JPEG", quality=quality, optimize=True)
    else:
        image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def make_image(rng: random.Random, index: int) -> tuple:
    fmt = "png" if index % 3 == 0 else "jpg"
    size = rng.choice(SIZES if fmt == "jpg" else SIZES[:6] + [(600, 600)])
    noise = rng.choice([0, 0, 2, 4, 8, 12])
    quality = rng.randint(55, 88)
    # Fixed derived seed per attempt keeps the result independent of earlier retries.
    for attempt in range(12):
        local = random.Random(rng.random() if attempt == 0 else f"{index}-{attempt}")
        data = encode(render(local, size, noise), fmt, quality)
        if len(data) > MAX_IMAGE_BYTES:
            noise, quality = max(0, noise - 4), max(40, quality - 12)
            if fmt == "png" and noise == 0:
                size = (size[0] * 3 // 4, size[1] * 3 // 4)
        elif len(data) < MIN_IMAGE_BYTES:
            noise, quality = noise + 4, min(95, quality + 5)
        else:
            return f"img-{index:03d}.{fmt}", data, size
    raise SystemExit(f"could not fit image {index} into {MIN_IMAGE_BYTES}…{MAX_IMAGE_BYTES} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "Fixtures"))
    parser.add_argument("--seed", type=int, default=20240501)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.out)
    images_dir = out / "images"
    if images_dir.exists():
        shutil.rmtree(images_dir)
    images_dir.mkdir(parents=True)

    names, total = [], 0
    for index in range(1, IMAGE_COUNT + 1):
        name, data, size = make_image(rng, index)
        (images_dir / name).write_bytes(data)
        names.append(name)
        total += len(data)
    print(f"wrote {len(names)} images, {total / 1024 / 1024:.2f} MB")

    authors = AUTHORS
    dates = make_dates(rng, POST_COUNT)
    used_titles, posts = set(), []
    for post_id in range(1, POST_COUNT + 1):
        author = rng.choice(authors)
        post = {
            "id": post_id,
            "title": make_title(rng, used_titles),
            "body": make_body(rng, author),
            "author": author,
            "createdAt": dates[post_id - 1],
            "popularity": round(rng.random(), rng.choice([2, 3, 4])),
        }
        if post_id not in POSTS_WITHOUT_IMAGE:
            # Mostly one image per post in order, with some reuse so posts share images.
            image = names[(post_id - 1) % IMAGE_COUNT] if rng.random() < 0.7 else rng.choice(names)
            post["imageUrl"] = f"/images/{image}"
        posts.append(post)
    posts[16]["popularity"] = 0.0   # edge values on purpose
    posts[41]["popularity"] = 1.0
    (out / "posts.json").write_text(json.dumps(posts, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(posts)} posts to {out / 'posts.json'}")


if __name__ == "__main__":
    main()
