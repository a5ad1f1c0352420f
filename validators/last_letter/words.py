"""The fixed word list the last-letter generator draws from: common English words, written for
Stepscope (no outside list copied), lowercase letters only, three to nine letters, no repeats.
Changing it changes every generated problem, so generated sets name `WORDS_VERSION`."""

WORDS_VERSION = "1"

WORDS: tuple[str, ...] = tuple("""
apple river stone window garden table butter candle silver forest
pencil orange yellow ladder mirror pocket rabbit school summer winter
basket bottle bridge castle circle cotton doctor dragon engine family
farmer finger flower friend guitar hammer island jacket kettle kitchen
lemon letter market meadow monkey number office paper parrot pepper
picture planet pillow puzzle rocket saddle shadow signal singer spider
spring square street sugar tunnel turtle valley velvet wallet water
anchor autumn banana beach blanket branch breeze cabin camera carpet
cherry chimney cloud coffee copper corner cousin desert dinner dollar
eagle elbow evening fabric feather fence field folder fountain gate
glass grape harbor helmet honey horse hotel insect iron jungle
kingdom knife ladle lamp lantern leaf library lion lizard machine
magnet maple marble meal melon metal minute moon mountain music
needle nest night ocean olive oven owl palace panda pants parcel
path peach pearl pilot pirate plate pond potato queen quilt radio
rain ribbon ring robot roof rope salad sand scarf season sheep
shell ship shoe shirt sky smile snow sock soup spoon star
storm sun sweater tail teacher tent thunder ticket tiger timber tomato
tooth tower town toy train tree truck umbrella uncle violin
wagon wheel whistle wind wing wolf wood world yard zebra
acorn badge bell bench berry boat book bread brick brush
bucket button cake canal card chair chalk cheese clock coat
comet crown cup daisy deer dish door dream drum duck
egg fern fire fish flag floor fog fork frog game
ghost gift goat grass hat hill home hook jar jewel
kite knot lake leg lock map mask milk mouse mud
""".split())
