/**
 * The made-up shops of the email templates: who sends each email, its address, header links,
 * colour hue, fonts and the products it sells (pictures from scripts/templates/email-assets.ts).
 */
import type { EmailFont } from '../../shared/gallery/email-schema.js'

export interface ShopProduct {
  name: string
  price: string
  image: string
}

export interface Shop {
  name: string
  tagline?: string
  industry: string
  /** Subdomain of example.com the shop's links go to. */
  domain: string
  address: string
  nav: [text: string, path: string][]
  hue: number
  headingFont: EmailFont
  bodyFont: EmailFont
  products: Record<string, ShopProduct>
}

export const SHOPS = {
  northwind: {
    name: 'Northwind Outfitters',
    tagline: 'Gear for long days outside',
    industry: 'outdoor',
    domain: 'northwind',
    address: '214 Alder Street, Portland, OR 97204, USA',
    nav: [['Packs', 'packs'], ['Footwear', 'footwear'], ['Trips', 'journal']],
    hue: 150,
    headingFont: 'trebuchet',
    bodyFont: 'verdana',
    products: {
      pack: { name: 'Ridge 28L daypack', price: '$129', image: 'backpack.png' },
      bottle: { name: 'Summit insulated bottle', price: '$34', image: 'water-bottle.png' },
      shoe: { name: 'Scree trail runner', price: '$148', image: 'sneaker-black.png' },
      tee: { name: 'Merino trail tee', price: '$68', image: 'tshirt-sage.png' },
    },
  },
  lune: {
    name: 'Maison Lune',
    tagline: 'Slow fashion, made in Lisbon',
    industry: 'fashion',
    domain: 'maisonlune',
    address: 'Rua das Flores 48, 1200-195 Lisboa, Portugal',
    nav: [['New in', 'new'], ['Dresses', 'dresses'], ['Bags', 'bags']],
    hue: 340,
    headingFont: 'georgia',
    bodyFont: 'helvetica',
    products: {
      rose: { name: 'Rosa polka-dot dress', price: '€129', image: 'dress-rose.png' },
      ochre: { name: 'Ochre linen midi', price: '€159', image: 'dress-ochre.png' },
      tote: { name: 'Canvas market tote', price: '€59', image: 'tote-sand.png' },
      shades: { name: 'Tortoise sunglasses', price: '€89', image: 'sunglasses.png' },
    },
  },
  ember: {
    name: 'Ember & Roast',
    tagline: 'Small-batch coffee, roasted Mondays',
    industry: 'coffee',
    domain: 'emberroast',
    address: '9 Foundry Lane, Leeds LS1 4BR, United Kingdom',
    nav: [['Coffee', 'coffee'], ['Subscriptions', 'subscribe'], ['Brew guides', 'guides']],
    hue: 25,
    headingFont: 'palatino',
    bodyFont: 'georgia',
    products: {
      house: { name: 'Foundry house blend', price: '£11', image: 'coffee-bag.png' },
      ethiopia: { name: 'Guji single origin', price: '£14', image: 'coffee-bag-green.png' },
      latte: { name: 'Café kit with oat milk', price: '£24', image: 'latte.png' },
      sencha: { name: 'Uji sencha tin', price: '£12', image: 'tea-tin.png' },
    },
  },
  bloom: {
    name: 'Bloom Skincare',
    tagline: 'Clean formulas, real results',
    industry: 'beauty',
    domain: 'bloomskin',
    address: '77 Rue de Charonne, 75011 Paris, France',
    nav: [['Skincare', 'skincare'], ['Makeup', 'makeup'], ['Routine quiz', 'quiz']],
    hue: 15,
    headingFont: 'helvetica',
    bodyFont: 'helvetica',
    products: {
      serum: { name: 'Glow vitamin C serum', price: '€38', image: 'serum.png' },
      cream: { name: 'Cloud night cream', price: '€42', image: 'cream-jar.png' },
      lipstick: { name: 'Velvet red lipstick', price: '€24', image: 'lipstick.png' },
      perfume: { name: 'Iris No. 4 eau de parfum', price: '€86', image: 'perfume.png' },
    },
  },
  lantern: {
    name: 'Paper Lantern Books',
    tagline: 'An independent bookshop since 1987',
    industry: 'books',
    domain: 'paperlantern',
    address: '31 Canal Street, Edinburgh EH1 2AB, United Kingdom',
    nav: [['Fiction', 'fiction'], ['Book club', 'club'], ['Events', 'events']],
    hue: 215,
    headingFont: 'times',
    bodyFont: 'georgia',
    products: {
      harbour: { name: 'The Harbour Keeper', price: '£18', image: 'book-blue.png' },
      sun: { name: 'A Season of Small Suns', price: '£10', image: 'book-green.png' },
      moon: { name: 'Red Moon over Kestrel', price: '£9', image: 'book-red.png' },
      bundle: { name: 'Four-book mystery box', price: '£35', image: 'book-stack.png' },
    },
  },
  paws: {
    name: 'Happy Paws',
    tagline: 'Everything for dogs, cats and their people',
    industry: 'pets',
    domain: 'happypaws',
    address: '1180 Maple Avenue, Denver, CO 80203, USA',
    nav: [['Dogs', 'dogs'], ['Cats', 'cats'], ['Autoship', 'autoship']],
    hue: 200,
    headingFont: 'trebuchet',
    bodyFont: 'arial',
    products: {
      bowl: { name: 'Non-slip steel bowl', price: '$19', image: 'dog-bowl.png' },
      yarn: { name: 'Catnip yarn ball', price: '$7', image: 'yarn-ball.png' },
      bed: { name: 'Donut calming bed', price: '$64', image: 'pet-bed.png' },
      gift: { name: 'Birthday treat box', price: '$29', image: 'gift-box.png' },
    },
  },
  volt: {
    name: 'Voltline',
    tagline: 'Tech that just works',
    industry: 'electronics',
    domain: 'voltline',
    address: '500 Harbor Blvd, Suite 12, San Jose, CA 95110, USA',
    nav: [['Audio', 'audio'], ['Phones', 'phones'], ['Wearables', 'wearables'], ['Deals', 'deals']],
    hue: 230,
    headingFont: 'arial',
    bodyFont: 'arial',
    products: {
      cans: { name: 'Pulse ANC headphones', price: '$199', image: 'headphones.png' },
      cansWhite: { name: 'Pulse Lite headphones', price: '$119', image: 'headphones-white.png' },
      phone: { name: 'Volt One smartphone', price: '$649', image: 'phone.png' },
      watch: { name: 'Orbit fitness watch', price: '$179', image: 'smartwatch.png' },
      speaker: { name: 'Boom Mini speaker', price: '$79', image: 'speaker.png' },
      laptop: { name: 'Airbook 14 laptop', price: '$999', image: 'laptop.png' },
    },
  },
  oak: {
    name: 'Oak & Ivy',
    tagline: 'Furniture and homeware with a long life',
    industry: 'furniture',
    domain: 'oakandivy',
    address: 'Kastanienallee 12, 10435 Berlin, Germany',
    nav: [['Living', 'living'], ['Lighting', 'lighting'], ['Plants', 'plants']],
    hue: 45,
    headingFont: 'georgia',
    bodyFont: 'tahoma',
    products: {
      chair: { name: 'Sunny lounge chair', price: '€349', image: 'chair.png' },
      armchair: { name: 'Velvet Otto armchair', price: '€529', image: 'chair-teal.png' },
      lamp: { name: 'Terra table lamp', price: '€79', image: 'lamp.png' },
      plant: { name: 'Monstera in clay pot', price: '€45', image: 'plant-pot.png' },
      candle: { name: 'Amber fig candle', price: '€22', image: 'candle.png' },
    },
  },
  stride: {
    name: 'Stride Athletics',
    tagline: 'Run further, recover faster',
    industry: 'sport',
    domain: 'stride',
    address: '88 Harrow Road, Manchester M4 6DE, United Kingdom',
    nav: [['Running', 'running'], ['Training', 'training'], ['Yoga', 'yoga']],
    hue: 5,
    headingFont: 'verdana',
    bodyFont: 'verdana',
    products: {
      coral: { name: 'Tempo 3 road shoe', price: '£110', image: 'sneaker-coral.png' },
      mint: { name: 'Cloudstep trainer', price: '£95', image: 'sneaker-mint.png' },
      mat: { name: 'Grip yoga mat', price: '£48', image: 'yoga-mat.png' },
      bell: { name: 'Hex dumbbell 10 kg', price: '£39', image: 'dumbbell.png' },
      bottle: { name: 'Aqua 750 ml bottle', price: '£18', image: 'water-bottle.png' },
    },
  },
  forkful: {
    name: 'Forkful',
    tagline: 'Local kitchens, at your door in 30 minutes',
    industry: 'food delivery',
    domain: 'forkful',
    address: '402 Bedford Avenue, Brooklyn, NY 11249, USA',
    nav: [['Order now', 'order'], ['Kitchens', 'kitchens'], ['Forkful+', 'plus']],
    hue: 12,
    headingFont: 'trebuchet',
    bodyFont: 'helvetica',
    products: {
      pizza: { name: 'Pepperoni & hot honey pizza', price: '$18', image: 'pizza.png' },
      salad: { name: 'Harvest grain salad', price: '$14', image: 'salad-bowl.png' },
      burger: { name: 'Double smash burger', price: '$16', image: 'burger.png' },
    },
  },
  wanderly: {
    name: 'Wanderly',
    tagline: 'Trips planned by people who have been there',
    industry: 'travel',
    domain: 'wanderly',
    address: 'Herengracht 221, 1016 BS Amsterdam, Netherlands',
    nav: [['Destinations', 'destinations'], ['Deals', 'deals'], ['My trips', 'trips']],
    hue: 190,
    headingFont: 'trebuchet',
    bodyFont: 'tahoma',
    products: {
      case: { name: 'Carry-on suitcase', price: '€189', image: 'suitcase.png' },
      pack: { name: 'City explorer backpack', price: '€95', image: 'backpack.png' },
      shades: { name: 'Polarised sunglasses', price: '€65', image: 'sunglasses.png' },
    },
  },
  thread: {
    name: 'Threadline',
    tagline: 'Better basics, fairly made',
    industry: 'fashion',
    domain: 'threadline',
    address: '65 Queen Street West, Toronto, ON M5H 2M5, Canada',
    nav: [['Tees', 'tees'], ['Accessories', 'accessories'], ['Our factories', 'factories']],
    hue: 260,
    headingFont: 'helvetica',
    bodyFont: 'arial',
    products: {
      navy: { name: 'Everyday tee, navy', price: '$32', image: 'tshirt-navy.png' },
      sage: { name: 'Everyday tee, sage', price: '$32', image: 'tshirt-sage.png' },
      tote: { name: 'Heavy canvas tote', price: '$28', image: 'tote-sand.png' },
      watch: { name: 'Field watch, tan strap', price: '$145', image: 'watch-leather.png' },
    },
  },
  wick: {
    name: 'Wick & Wonder',
    tagline: 'Candles and gifts for slow evenings',
    industry: 'gifts',
    domain: 'wickwonder',
    address: '17 Market Square, Bath BA1 1NP, United Kingdom',
    nav: [['Candles', 'candles'], ['Gift sets', 'gifts'], ['Scents', 'scents']],
    hue: 285,
    headingFont: 'palatino',
    bodyFont: 'palatino',
    products: {
      candle: { name: 'Amber & fig candle', price: '£26', image: 'candle.png' },
      gift: { name: 'Evening ritual gift box', price: '£48', image: 'gift-box.png' },
      perfume: { name: 'Midnight iris room spray', price: '£22', image: 'perfume.png' },
      plant: { name: 'Mini olive tree', price: '£30', image: 'plant-pot.png' },
    },
  },
  hour: {
    name: 'Hour & Hand',
    tagline: 'Watches and accessories, built to be repaired',
    industry: 'accessories',
    domain: 'hourandhand',
    address: 'Bahnhofstrasse 40, 8001 Zurich, Switzerland',
    nav: [['Watches', 'watches'], ['Straps', 'straps'], ['Service', 'service']],
    hue: 35,
    headingFont: 'courier',
    bodyFont: 'helvetica',
    products: {
      field: { name: 'Field 38 automatic', price: '$420', image: 'watch-leather.png' },
      smart: { name: 'Hybrid smart watch', price: '$260', image: 'smartwatch.png' },
      shades: { name: 'Aviator sunglasses', price: '$150', image: 'sunglasses.png' },
      tote: { name: 'Waxed canvas tote', price: '$95', image: 'tote-sand.png' },
    },
  },
} satisfies Record<string, Shop>

export type ShopKey = keyof typeof SHOPS
