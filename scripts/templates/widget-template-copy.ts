/**
 * The words of every widget template, read by scripts/templates/generate-widget-templates.ts. One line per
 * template: [slug, name, headline, text, button, extra]. The slug, with the family, is the
 * template's key: its id is derived from it, so a slug must never change once published.
 */
import type { ArtMotif, WidgetLayout } from '../../shared/gallery/widget-schema.js'

export interface CopyExtra {
  kicker?: string
  note?: string
  code?: string
  success?: [headline: string, text: string]
  layout?: WidgetLayout
  art?: ArtMotif
  tags?: string[]
  /** Fields preset of the family to use instead of its default. */
  fields?: string
  secondary?: string
  countdown?: number
  launcher?: string
}

export type CopyLine = [slug: string, name: string, headline: string, text: string, button: string, extra?: CopyExtra]

export const DISCOUNT: CopyLine[] = [
  ['first-order-ten', 'First order 10%', 'Take 10% off your first order', 'Join the list and the code is yours, along with early access to new drops.', 'Get my 10%', { code: 'HELLO10', tags: ['welcome', 'first order'] }],
  ['free-shipping-unlock', 'Free shipping unlock', 'Shipping is on us', 'Leave your email and your first order ships free, anywhere in the country.', 'Unlock free shipping', { code: 'SHIPFREE', art: 'truck', tags: ['shipping'] }],
  ['fifteen-welcome', 'Welcome 15%', 'Hello there, here is 15% off', 'New around here? Start with a little something from us.', 'Send my code', { code: 'WELCOME15', kicker: 'New visitor gift' }],
  ['exit-save-twenty', 'Leaving already? 20%', 'Wait! Your cart deserves 20% off', 'Finish your order in the next hour and the discount applies automatically.', 'Claim 20% off', { code: 'STAY20', tags: ['exit intent', 'cart'] }],
  ['birthday-club', 'Birthday club', 'Join the birthday club', 'Tell us your birthday and we will send a treat on the day.', 'Count me in', { fields: 'email-birthday', code: 'BDAYTREAT', art: 'cake', tags: ['birthday'] }],
  ['sms-double', 'SMS and email combo', 'Double the perks: text and email', 'Sign up for both and stack 10% + free returns on your first order.', 'Sign me up', { fields: 'email-phone', code: 'DOUBLE10', tags: ['sms', 'phone'] }],
  ['bundle-five-off', '$5 off a bundle', '$5 off any bundle', 'Mix three items, save five dollars. Your code arrives in seconds.', 'Email me $5 off', { code: 'BUNDLE5', art: 'bag' }],
  ['members-price', 'Member prices', 'Unlock member prices today', 'Members see lower prices on 200+ items. Joining takes one field.', 'Become a member', { code: 'MEMBER', art: 'ticket', tags: ['loyalty'] }],
  ['coffee-club-code', 'Coffee club code', 'Your first bag is 25% off', 'Freshly roasted every Monday. Subscribe to our notes and save on the first bag.', 'Brew my discount', { code: 'ROAST25', art: 'cup', tags: ['coffee', 'food'] }],
  ['pet-parent-perk', 'Pet parent perk', 'Treats for you and your pet', 'Join our pack for 10% off food, toys and the odd surprise.', 'Join the pack', { code: 'GOODBOY10', art: 'paw', tags: ['pets'] }],
  ['beauty-sample', 'Free beauty sample', 'Pick a free sample with your order', 'Subscribe and choose a deluxe sample at checkout.', 'Choose my sample', { code: 'SAMPLE', art: 'bottle', tags: ['beauty', 'sample'] }],
  ['student-discount', 'Student discount', 'Students save 20% all year', 'Use your school email to unlock the student price.', 'Verify and save', { code: 'STUDY20', art: 'book', tags: ['students'] }],
  ['second-visit', 'Welcome back offer', 'Good to see you again', 'Still thinking it over? Here is 10% to help you decide.', 'Show my offer', { code: 'BACK10', kicker: 'Returning visitor' }],
  ['plant-shop-code', 'Plant shop welcome', 'Grow your jungle for less', 'New plant parents get 15% off and a care guide in their inbox.', 'Get 15% and the guide', { code: 'GREEN15', art: 'plant', tags: ['plants', 'home'] }],
  ['outdoor-gear-ten', 'Outdoor gear 10%', 'Gear up for the weekend', 'Join the trail list for 10% off tents, packs and boots.', 'Start my adventure', { code: 'TRAIL10', art: 'mountain', tags: ['outdoor', 'sports'] }],
  ['free-gift-threshold', 'Free gift over $50', 'A free gift with orders over $50', 'Leave your email and we will slip a gift into your next box.', 'Reserve my gift', { code: 'GIFT50', art: 'gift' }],
  ['book-lovers', 'Readers save', 'Readers save 12% on every book', 'Get weekly picks from our booksellers and a welcome code.', 'Send my picks', { code: 'READ12', art: 'book', tags: ['books'] }],
  ['sneaker-drop-code', 'Sneaker drop code', 'Be first in line for the next drop', 'Subscribers get a code 24 hours before everybody else.', 'Put me on the list', { code: 'EARLYKICKS', art: 'shoe', tags: ['shoes', 'launch'] }],
  ['mystery-discount', 'Mystery discount', 'Reveal your mystery discount', 'It could be 10, 15 or 20% off. Enter your email to find out.', 'Reveal it', { code: 'MYSTERY15', art: 'sparkle', tags: ['gamified'] }],
  ['wholesale-inquiry-ten', 'Trade account discount', 'Buying for a shop or studio?', 'Open a trade account and get 10% off your first wholesale order.', 'Open my account', { fields: 'email-company', code: 'TRADE10', art: 'tag', tags: ['b2b', 'wholesale'] }],
  ['fashion-first-look', 'Fashion first look', 'First look, first dibs, 10% off', 'Style notes from our studio, plus a welcome code.', 'Get first look', { code: 'FIRSTLOOK', art: 'shirt', tags: ['fashion', 'clothing'] }],
  ['kids-store-welcome', 'Kids store welcome', 'Little outfits, big savings', 'Join other parents and get 15% off your first kidswear order.', 'Save 15% now', { code: 'LITTLE15', art: 'heart', tags: ['kids'] }],
  ['Custom-spin-wheel', 'Custom spin-the-wheel', 'Spin the wheel, win a prize', 'Every spin wins: up to 30% off, free shipping or a gift.', 'Spin now', { code: 'SPIN25', art: 'sparkle', tags: ['gamified', 'wheel'] }],
  ['Custom-scratch-card', 'Custom scratch card', 'Scratch to reveal your reward', 'Enter your email, then scratch the card to see what you won.', 'Scratch it', { code: 'SCRATCH20', art: 'ticket', tags: ['gamified', 'scratch'] }],
  ['Custom-gift-box-pick', 'Custom pick-a-gift', 'Pick a box, any box', 'Three boxes, three surprises. Your email unlocks the one you choose.', 'Open my box', { code: 'BOXPICK', art: 'gift', tags: ['gamified'] }],
  ['Custom-quiz-discount', 'Custom style quiz discount', 'Take the 30-second style quiz', 'Answer two questions and get 15% off the pieces that suit you.', 'See my results', { fields: 'quiz', code: 'QUIZ15', art: 'sliders', tags: ['quiz', 'gamified'] }],
  ['Custom-countdown-code', 'Custom countdown code', 'This code melts in 15 minutes', 'A one-time 20% off, only for this visit. The clock is ticking.', 'Grab the code', { code: 'MELT20', art: 'clock', countdown: 15, tags: ['urgency', 'countdown'] }],
  ['Custom-slot-machine', 'Custom slot machine', 'Pull the lever for a deal', 'Three matching symbols win the big prize. Everyone wins something.', 'Pull the lever', { code: 'JACKPOT', art: 'bolt', tags: ['gamified'] }],
  ['Custom-loyalty-stamp', 'Custom loyalty stamp card', 'Collect 5 stamps, get a free drink', 'Your first stamp is on us. Sign up and we keep count.', 'Get my first stamp', { code: 'STAMP1', art: 'cup', tags: ['loyalty', 'coffee'] }],
  ['Custom-refer-friend', 'Custom refer a friend', 'Give $10, get $10', 'Share your link with a friend. When they order, you both save.', 'Get my link', { fields: 'email-friend', code: 'FRIEND10', art: 'heart', tags: ['referral'] }],
]

export const SUBSCRIBE: CopyLine[] = [
  ['weekly-newsletter', 'Weekly newsletter', 'The good stuff, once a week', 'One email every Friday: new arrivals, stories and nothing else.', 'Subscribe', { art: 'envelope', tags: ['newsletter'] }],
  ['blog-updates', 'Blog updates', 'Never miss a new article', 'Get our latest guides straight to your inbox. About two a month.', 'Keep me posted', { art: 'book', tags: ['blog', 'content'] }],
  ['back-in-stock', 'Back in stock alert', 'Sold out? We will tell you first', 'Leave your email and we will write the minute it is back.', 'Notify me', { art: 'bell', tags: ['stock', 'alert'] }],
  ['price-drop-alert', 'Price drop alert', 'Want it cheaper? Wait for it', 'We will email you when the price drops. No other mail.', 'Watch the price', { art: 'tag', tags: ['price', 'alert'] }],
  ['recipe-club', 'Recipe club', 'A new recipe every Sunday', 'Seasonal, simple, tested in our kitchen. Join 40,000 home cooks.', 'Send me recipes', { art: 'cake', tags: ['food', 'recipes'] }],
  ['podcast-episodes', 'New episode alerts', 'New episodes, straight to you', 'Be the first to hear when a new conversation drops.', 'Alert me', { art: 'megaphone', tags: ['podcast'] }],
  ['course-waitlist', 'Course waitlist', 'Doors open soon', 'Join the waitlist to get the early-bird price when enrolment opens.', 'Join the waitlist', { art: 'book', tags: ['course', 'waitlist'] }],
  ['product-launch-list', 'Launch list', 'Something new is coming', 'Get notified on launch day, plus a behind-the-scenes look before.', 'Tell me first', { art: 'sparkle', tags: ['launch'] }],
  ['travel-deals', 'Travel deals digest', 'Cheap flights, twice a week', 'Hand-picked fares from your city. Unsubscribe in one click.', 'Find me deals', { fields: 'email-city', art: 'globe', tags: ['travel'] }],
  ['local-events', 'Local events', 'What is on near you', 'Workshops, tastings and pop-ups in your city, every Thursday.', 'Show me events', { fields: 'email-city', art: 'ticket', tags: ['events'] }],
  ['webinar-signup', 'Webinar sign-up', 'Save your seat for Thursday', 'A live 45-minute session on growing your list. Replay included.', 'Reserve my seat', { fields: 'name-email', art: 'clock', tags: ['webinar', 'b2b'] }],
  ['ebook-download', 'Free e-book', 'Free guide: 50 subject lines that work', 'Tested on a million sends. Yours free, delivered to your inbox.', 'Send the guide', { art: 'book', tags: ['lead magnet', 'ebook'] }],
  ['checklist-download', 'Free checklist', 'The launch checklist we use', 'Thirty steps, one page, zero fluff. Grab the PDF.', 'Email me the PDF', { art: 'sliders', tags: ['lead magnet'] }],
  ['gardening-tips', 'Gardening tips', 'Seasonal tips for your garden', 'What to sow, prune and pick this month, from our growers.', 'Grow with us', { art: 'leaf', tags: ['garden'] }],
  ['fitness-plan', 'Free fitness plan', 'Your free 4-week plan', 'Short home workouts, no equipment. Week one lands today.', 'Start week one', { fields: 'name-email', art: 'bolt', tags: ['fitness', 'sports'] }],
  ['wine-notes', 'Cellar notes', 'Notes from the cellar', 'A monthly letter on what we are pouring and why.', 'Pour me a letter', { art: 'bottle', tags: ['wine', 'food'] }],
  ['design-inspiration', 'Design inspiration', 'Five beautiful things, every Monday', 'Curated interiors, objects and ideas. Takes two minutes to read.', 'Inspire me', { art: 'sparkle', tags: ['design', 'home'] }],
  ['parent-newsletter', 'Parenting letter', 'Fewer tantrums, more fun', 'Practical ideas for busy parents, once a week.', 'Join the parents', { art: 'heart', tags: ['kids', 'family'] }],
  ['tech-digest', 'Tech digest', 'The week in tech, in 5 minutes', 'Smart summaries of what matters. Read by 80,000 builders.', 'Subscribe free', { art: 'bolt', tags: ['tech'] }],
  ['art-prints-drops', 'Art print drops', 'Limited prints, first access', 'Editions of 50. Subscribers hear about them a day early.', 'Get early access', { art: 'sun', tags: ['art'] }],
  ['pet-care-tips', 'Pet care tips', 'Happy pets, happy home', 'Vet-approved tips and the odd cute photo, every fortnight.', 'Sign me up', { art: 'paw', tags: ['pets'] }],
  ['jewelry-stories', 'Jewelry stories', 'Stories behind every piece', 'Meet our makers and see new collections before anyone else.', 'Join the circle', { art: 'sparkle', tags: ['jewelry'] }],
  ['surf-report', 'Surf report', 'Swell alerts for your beach', 'We email when the waves are worth the drive.', 'Alert me to swell', { fields: 'email-city', art: 'wave', tags: ['sports', 'surf'] }],
  ['name-and-email', 'Name and email', 'Let us get to know you', 'Tell us your name so our emails feel less like emails.', 'Nice to meet you', { fields: 'name-email', art: 'envelope' }],
  ['consent-newsletter', 'Newsletter with consent', 'Join our newsletter', 'News, offers and the occasional survey. We never share your address.', 'Subscribe', { fields: 'email-consent', art: 'lock', tags: ['gdpr', 'consent'] }],
  ['minimal-footer-signup', 'Minimal sign-up', 'Stay in touch', 'Occasional news from our small studio.', 'Join', { art: 'envelope', tags: ['minimal'] }],
]

export const FEEDBACK: CopyLine[] = [
  ['star-rating', 'Star rating', 'How was your visit today?', 'Rate us in one tap. It helps more than you think.', 'Send rating', { fields: 'rating', art: 'stars', tags: ['rating', 'survey'] }],
  ['nps-question', 'Would you recommend us', 'Would you recommend us to a friend?', 'Pick the answer that fits best.', 'Submit', { fields: 'recommend', art: 'heart', tags: ['nps', 'survey'] }],
  ['found-it', 'Did you find it', 'Did you find what you were looking for?', 'Your answer helps us improve the store.', 'Send', { fields: 'found', art: 'sliders', tags: ['survey'] }],
  ['checkout-friction', 'Checkout feedback', 'Anything stopping you today?', 'Tell us what is holding you back and we will try to fix it.', 'Tell us', { fields: 'blocker', art: 'bag', tags: ['cart', 'survey'] }],
  ['post-purchase-survey', 'How did you hear', 'How did you hear about us?', 'Just one question, we promise.', 'Answer', { fields: 'source', art: 'megaphone', tags: ['attribution', 'survey'] }],
  ['product-review-ask', 'Review request', 'Loving your new order?', 'Rate it and add a few words for other shoppers.', 'Post review', { fields: 'rating-comment', art: 'stars', tags: ['reviews'] }],
  ['feature-request', 'Feature request', 'What should we build next?', 'Tell our team the one thing that would make your day easier.', 'Send idea', { fields: 'idea', art: 'sparkle', tags: ['product', 'saas'] }],
  ['contact-us', 'Contact form', 'Questions? Write to us', 'We answer every message within one business day.', 'Send message', { fields: 'contact', art: 'envelope', tags: ['contact', 'support'] }],
  ['bug-report', 'Report a problem', 'Spotted something broken?', 'Describe what happened and we will look at it today.', 'Report it', { fields: 'problem', art: 'bolt', tags: ['support'] }],
  ['delivery-feedback', 'Delivery feedback', 'How was your delivery?', 'Rate the courier and packaging so we can keep it great.', 'Rate delivery', { fields: 'rating-comment', art: 'truck', tags: ['delivery', 'rating'] }],
  ['content-helpful', 'Was this helpful', 'Was this article helpful?', 'Quick vote: it tells us what to write more of.', 'Vote', { fields: 'helpful', art: 'book', tags: ['content', 'help'] }],
  ['size-feedback', 'Fit feedback', 'How did it fit?', 'Help other shoppers pick the right size.', 'Share fit', { fields: 'fit', art: 'shirt', tags: ['fashion', 'fit'] }],
  ['callback-request', 'Request a callback', 'Prefer to talk it through?', 'Leave your number and a specialist will call you back today.', 'Call me back', { fields: 'callback', art: 'chat', tags: ['request', 'phone'] }],
  ['quote-request', 'Request a quote', 'Get a quote in 24 hours', 'Tell us about your project and we will price it up.', 'Request quote', { fields: 'quote', art: 'tag', tags: ['request', 'b2b'] }],
  ['cancellation-survey', 'Why leaving', 'Sorry to see you go', 'Mind telling us why? One click is enough.', 'Send answer', { fields: 'leaving', art: 'wave', tags: ['churn', 'survey'] }],
  ['event-rating', 'Event rating', 'How was the workshop?', 'Your stars and a comment help us plan the next one.', 'Rate it', { fields: 'rating-comment', art: 'ticket', tags: ['events', 'rating'] }],
  ['appointment-booking', 'Book an appointment', 'Book a free consultation', 'Pick a day and we will confirm the time by email.', 'Book now', { fields: 'booking', art: 'clock', tags: ['booking', 'request'] }],
  ['emoji-mood', 'Mood check', 'How do you feel about our new look?', 'Pick the answer closest to your reaction.', 'Send', { fields: 'mood', art: 'sun', tags: ['survey', 'design'] }],
]

export const AGE: CopyLine[] = [
  ['wine-shop-gate', 'Wine shop age check', 'Are you of legal drinking age?', 'You must be 18 or older to enter this wine shop.', 'Yes, I am 18+', { secondary: 'No, I am not', art: 'bottle', tags: ['alcohol', 'wine'] }],
  ['brewery-gate', 'Brewery age check', 'Welcome to the taproom', 'Please confirm you are of legal drinking age to continue.', 'I am 18 or older', { secondary: 'I am under 18', art: 'cup', tags: ['alcohol', 'beer'] }],
  ['birthdate-gate', 'Date of birth gate', 'Please enter your date of birth', 'We are required to check your age before you browse.', 'Enter site', { fields: 'birthdate', art: 'idcard', tags: ['birthdate'] }],
  ['vape-gate', 'Vape store age check', 'Adults only', 'Our products contain nicotine and are for adults aged 18 and over.', 'I am 18+', { secondary: 'Leave', art: 'lock', tags: ['nicotine'] }],
  ['spirits-gate', 'Spirits age check', 'A quick check before we pour', 'Confirm you are of legal age to buy spirits in your country.', 'Confirm age', { secondary: 'Not yet', art: 'bottle', tags: ['alcohol', 'spirits'] }],
  ['game-rating-gate', 'Mature game check', 'This trailer is rated Mature', 'It contains scenes not suitable for players under 17.', 'I am 17 or older', { secondary: 'Go back', art: 'bolt', tags: ['games'] }],
  ['cigar-lounge-gate', 'Cigar lounge check', 'Welcome to the lounge', 'Entry is limited to visitors aged 21 and over.', 'I am 21+', { secondary: 'I am under 21', art: 'idcard', tags: ['tobacco'] }],
  ['cbd-gate', 'CBD shop check', 'Are you 18 or older?', 'Our shop sells products intended for adults only.', 'Yes, let me in', { secondary: 'No', art: 'leaf', tags: ['cbd'] }],
  ['birthdate-21-gate', 'Date of birth 21+', 'Verify your age to continue', 'Enter your date of birth. You must be 21 to view this site.', 'Verify', { fields: 'birthdate21', art: 'lock', tags: ['birthdate'] }],
  ['cocktail-kit-gate', 'Cocktail kit check', 'Cheers! One quick question', 'Our cocktail kits include alcohol. Are you of legal drinking age?', 'Yes, cheers', { secondary: 'No thanks', art: 'cup', tags: ['alcohol', 'gifts'] }],
]

export const PRODUCT: CopyLine[] = [
  ['gift-finder', 'Gift finder', 'Find the perfect gift in 10 seconds', 'Tell us who it is for and your budget. We do the rest.', 'Find gifts', { fields: 'gift-finder', art: 'gift', tags: ['gifts', 'quiz'] }],
  ['size-finder', 'Size finder', 'Find your size', 'Two questions and we will suggest the right fit.', 'Show my size', { fields: 'size-finder', art: 'shirt', tags: ['fashion', 'fit'] }],
  ['skin-type-quiz', 'Skin type quiz', 'What does your skin need?', 'Answer two questions for a routine made for you.', 'Build my routine', { fields: 'skin', art: 'bottle', tags: ['beauty', 'quiz'] }],
  ['coffee-matcher', 'Coffee matcher', 'Find your perfect roast', 'How do you brew, and how do you like it?', 'Match my coffee', { fields: 'coffee', art: 'cup', tags: ['coffee', 'quiz'] }],
  ['shoe-filter', 'Running shoe filter', 'Which running shoe is yours?', 'Pick your surface and distance to narrow 60 shoes to 3.', 'Show matches', { fields: 'running', art: 'shoe', tags: ['shoes', 'sports'] }],
  ['plant-matcher', 'Plant matcher', 'Which plant fits your home?', 'Tell us about the light and your watering habits.', 'Find my plant', { fields: 'plant', art: 'plant', tags: ['plants', 'quiz'] }],
  ['book-recommender', 'Book recommender', 'Your next favourite book', 'Pick a mood and a length. Our booksellers pick three titles.', 'Recommend books', { fields: 'book', art: 'book', tags: ['books'] }],
  ['furniture-style', 'Interior style filter', 'What is your interior style?', 'Choose the room and the look you love.', 'See the edit', { fields: 'interior', art: 'sparkle', tags: ['home', 'furniture'] }],
  ['pet-food-finder', 'Pet food finder', 'The right food for your pet', 'Pick the animal and its age for a vet-approved match.', 'Find food', { fields: 'pet-food', art: 'paw', tags: ['pets'] }],
  ['budget-filter', 'Shop by budget', 'Shop within your budget', 'Choose a price range and a category to jump straight there.', 'Go shopping', { fields: 'budget', art: 'tag', tags: ['filter', 'price'] }],
]

export const SALE: CopyLine[] = [
  ['flash-sale', 'Flash sale', 'Flash sale: 30% off everything', 'For the next few hours only. No code needed.', 'Show me the sale', { countdown: 180, art: 'bolt', code: 'FLASH30', tags: ['flash', 'countdown'] }],
  ['weekend-sale', 'Weekend sale', 'The weekend sale is on', 'Up to 40% off across the store until Sunday midnight.', 'Shop the sale', { countdown: 2880, art: 'tag', code: 'WEEKEND40', tags: ['weekend'] }],
  ['clearance', 'Clearance', 'Last chance: clearance up to 60%', 'Final sizes and colours. Once they are gone, they are gone.', 'See clearance', { art: 'bag', code: 'LASTCALL', tags: ['clearance'] }],
  ['bogo', 'Buy one get one', 'Buy one, get one free', 'On all tees and tanks. Mix and match any colour.', 'Reveal the deal', { art: 'shirt', code: 'BOGO', tags: ['bogo', 'fashion'] }],
  ['free-shipping-weekend', 'Free shipping weekend', 'Free shipping, no minimum', 'This weekend only, on every order.', 'Get free shipping', { art: 'truck', code: 'FREESHIP', tags: ['shipping'] }],
  ['cart-reminder', 'Cart reminder', 'Your cart is waiting', 'The items you picked are selling fast. Complete your order with 10% off.', 'Apply 10% off', { art: 'bag', code: 'CART10', tags: ['cart', 'abandonment'] }],
  ['tiered-discount', 'Spend more save more', 'Spend more, save more', 'Save 10% on $50, 15% on $100, and 20% on $150 or more.', 'Show my code', { art: 'percent', code: 'TIERS', tags: ['tiered'] }],
  ['happy-hour', 'Happy hour', 'Happy hour: 2 for 1 until 7 pm', 'On all drinks and snacks ordered online.', 'Order now', { countdown: 120, art: 'cup', code: 'HAPPYHOUR', tags: ['food', 'countdown'] }],
  ['anniversary-sale', 'Store anniversary sale', 'We are turning 5! Take 25% off', 'Thank you for five wonderful years. Celebrate with us.', 'Celebrate with 25%', { art: 'cake', code: 'FIVEYEARS', tags: ['anniversary'] }],
  ['final-day', 'Final day sale', 'Final day: prices go back at midnight', 'Everything you saved for is still 30% off today.', 'Shop before midnight', { countdown: 720, art: 'clock', code: 'FINALDAY', tags: ['urgency', 'countdown'] }],
  ['trending-on-sale', 'Trending items on sale', 'Trending now, and on sale', 'The ten most-loved items this week, up to 35% off.', 'See what is trending', { art: 'stars', code: 'TRENDING', tags: ['trending'] }],
  ['offer-expires', 'Offer expires soon', 'Your offer expires soon', 'Your personal 20% off ends in less than an hour.', 'Use my 20%', { countdown: 55, art: 'clock', code: 'SOON20', tags: ['urgency', 'countdown'] }],
  ['sale-closes', 'Sale closes soon', 'The sale closes tonight', 'Last chance to save up to half on summer styles.', 'Shop the last hours', { countdown: 300, art: 'sun', code: 'SUMMER50', tags: ['summer', 'countdown'] }],
  ['cart-saved', 'Cart saved for 24 hours', 'We saved your cart for 24 hours', 'Your picks are held until tomorrow. Check out whenever you are ready.', 'Back to my cart', { countdown: 1440, art: 'lock', code: 'HOLD24', tags: ['cart'] }],
  ['claim-coupon', 'Claim your coupon', 'Claim your $15 coupon', 'Valid on orders over $75, for one week.', 'Claim coupon', { art: 'ticket', code: 'CLAIM15', tags: ['coupon'] }],
  ['midseason-sale', 'Mid-season sale', 'Mid-season sale: new markdowns', 'Fresh reductions on jackets, knits and boots.', 'Browse markdowns', { art: 'leaf', code: 'MIDSEASON', tags: ['seasonal', 'fashion'] }],
  ['bundle-deal', 'Bundle deal', 'Bundle and save 20%', 'Any three from the skincare range, one lower price.', 'Build my bundle', { art: 'bottle', code: 'BUNDLE20', tags: ['bundle', 'beauty'] }],
  ['early-access-sale', 'Early access sale', 'You are in: early access is open', 'Subscribers shop the sale 24 hours before everyone else.', 'Shop early', { countdown: 1440, art: 'ticket', code: 'EARLYBIRD', tags: ['early access'] }],
  ['warehouse-sale', 'Warehouse sale', 'Warehouse sale: up to 70% off', 'Samples, seconds and end-of-line stock. While it lasts.', 'Dig for deals', { art: 'truck', code: 'WAREHOUSE', tags: ['clearance'] }],
  ['member-sale', 'Member sale', 'Members save an extra 15%', 'Log in and the extra discount applies at checkout.', 'Reveal member code', { art: 'sparkle', code: 'MEMBER15', tags: ['loyalty'] }],
]

export const ANNOUNCE: CopyLine[] = [
  ['cookie-notice', 'Cookie notice', 'We use cookies', 'Some are needed for the store to work, others help us improve it. You choose.', 'Accept all', { secondary: 'Only necessary', art: 'cake', tags: ['cookies', 'consent', 'gdpr'] }],
  ['shipping-delay', 'Shipping delay notice', 'Heads-up: deliveries take 2 extra days', 'Our courier is busy this week. Thank you for your patience.', 'Got it', { art: 'truck', tags: ['shipping'] }],
  ['new-collection', 'New collection', 'The autumn collection has landed', 'Warm layers, rich colours, and our softest knit yet.', 'Take a look', { art: 'leaf', tags: ['launch', 'fashion'] }],
  ['store-opening', 'Store opening', 'Our first store opens Saturday', 'Come say hi at 12 Market Street. Coffee is on us.', 'See you there', { art: 'bag', tags: ['store', 'events'] }],
  ['holiday-hours', 'Holiday hours', 'Holiday opening hours', 'We close at 2 pm on the 24th and reopen on the 27th.', 'Thanks', { art: 'clock', tags: ['hours'] }],
  ['app-download', 'Get the app', 'Shopping is faster in the app', 'Track orders, save favourites and get app-only offers.', 'Remind me later', { art: 'bell', tags: ['app'] }],
  ['price-change', 'Price update', 'A note about our prices', 'From next month some prices change. Everything in your cart keeps today’s price.', 'Understood', { art: 'tag', tags: ['pricing'] }],
  ['new-feature', 'New feature', 'New: save items for later', 'Tap the heart on any product to keep it in your list.', 'Nice!', { art: 'heart', tags: ['product', 'saas'] }],
  ['maintenance', 'Maintenance notice', 'Scheduled maintenance tonight', 'The store is unavailable from 1 to 2 am while we upgrade it.', 'OK', { art: 'sliders', tags: ['status'] }],
  ['charity-week', 'Charity week', 'This week, 5% goes to the food bank', 'Every order helps families in our city. Thank you for taking part.', 'Lovely', { art: 'heart', tags: ['charity'] }],
  ['returns-policy', 'Free returns', 'Returns are free for 60 days', 'Not quite right? Send it back, on us.', 'Good to know', { art: 'truck', tags: ['returns'] }],
  ['event-invite', 'Event invitation', 'You are invited: summer garden party', 'Join us on June 21 for music, food and a few surprises.', 'Count me in', { fields: 'rsvp', art: 'sun', tags: ['events', 'invite'] }],
  ['award-news', 'Award news', 'We won Best Small Shop 2025', 'Thank you for voting. We could not have done it without you.', 'Celebrate', { art: 'stars', tags: ['news'] }],
  ['sustainability-note', 'Sustainability update', 'All our packaging is now plastic-free', 'Paper tape, recycled boxes and compostable mailers, from today.', 'Read more later', { art: 'leaf', tags: ['sustainability'] }],
  ['covid-safe-pickup', 'Pickup notice', 'Click and collect is back', 'Order online and pick up in store within two hours.', 'Great', { art: 'bag', tags: ['pickup'] }],
  ['language-switch', 'Language notice', 'Visiting from abroad?', 'We ship to 40 countries and show prices in your currency.', 'Continue', { art: 'globe', tags: ['international'] }],
  ['video-tour', 'Behind the scenes', 'Go behind the scenes', 'See how our candles are poured by hand in our workshop.', 'Maybe later', { art: 'sparkle', tags: ['video', 'story'] }],
  ['privacy-update', 'Privacy update', 'We updated our privacy policy', 'Plain-language changes about how we handle your data.', 'Close', { art: 'lock', tags: ['privacy', 'legal'] }],
]

export const WHATSAPP: CopyLine[] = [
  ['support-chat', 'Support chat', 'Questions? Chat with us', 'Our team answers on WhatsApp, usually within minutes.', 'Start chat', { tags: ['support'] }],
  ['order-help', 'Order help', 'Need help with your order?', 'Send us your order number and we will sort it out.', 'Message us', { fields: 'wa-order', tags: ['orders'] }],
  ['stylist-chat', 'Personal stylist', 'Ask our stylist', 'Not sure what to wear? Get outfit ideas by message.', 'Ask a stylist', { tags: ['fashion'] }],
  ['booking-chat', 'Booking by message', 'Book a table by message', 'Tell us the day and party size, we confirm in minutes.', 'Book via chat', { fields: 'wa-booking', tags: ['restaurant', 'booking'] }],
  ['sales-chat', 'Sales chat', 'Talk to sales', 'Get pricing for your team from a real person.', 'Chat with sales', { tags: ['b2b', 'sales'] }],
  ['plant-doctor', 'Plant doctor', 'Sick plant? Ask the plant doctor', 'Send a message and our gardeners will help.', 'Ask the doctor', { tags: ['plants'] }],
  ['tour-chat', 'Travel chat', 'Plan your trip with a local', 'Our guides answer questions about tours and transfers.', 'Message a guide', { tags: ['travel'] }],
  ['repair-chat', 'Repair chat', 'Something broken? We can fix it', 'Describe the problem and we will quote the repair.', 'Get a quote', { fields: 'wa-order', tags: ['repair', 'support'] }],
  ['bakery-orders', 'Bakery orders', 'Order a custom cake', 'Tell us the occasion and we will design it with you.', 'Start my order', { tags: ['food', 'cake'] }],
  ['gym-chat', 'Gym chat', 'Questions about memberships?', 'Our front desk answers on WhatsApp 7 am to 10 pm.', 'Chat now', { tags: ['fitness'] }],
]

export const LAUNCHER: CopyLine[] = [
  ['tab-ten-off', 'Side tab 10% off', 'Want 10% off?', 'Join our list and the code is yours right away.', 'Get 10% off', { launcher: '10% off', code: 'TAB10', fields: 'email', art: 'percent', tags: ['discount', 'tab'] }],
  ['gift-bubble', 'Gift bubble', 'A little gift for you', 'Open the box for a surprise on your first order.', 'Open my gift', { launcher: 'Gift', code: 'SURPRISE', fields: 'email', art: 'gift', tags: ['discount'] }],
  ['help-button', 'Help button', 'How can we help?', 'Leave a message and we reply by email within a day.', 'Send', { launcher: 'Help', fields: 'contact', art: 'chat', tags: ['support', 'contact'] }],
  ['newsletter-tab', 'Newsletter tab', 'Get our weekly letter', 'Short, useful, free. Unsubscribe whenever you like.', 'Subscribe', { launcher: 'Newsletter', fields: 'email', art: 'envelope', tags: ['newsletter'] }],
  ['feedback-tab', 'Feedback tab', 'Tell us what you think', 'Rate this page and leave a comment if you like.', 'Send feedback', { launcher: 'Feedback', fields: 'rating-comment', art: 'stars', tags: ['feedback'] }],
  ['free-shipping-pill', 'Free shipping pill', 'Free shipping over $40', 'That is all. Happy shopping!', 'Got it', { launcher: 'Free shipping', art: 'truck', tags: ['shipping'] }],
  ['sale-badge', 'Sale badge', 'Sale: up to 50% off', 'Hundreds of styles just got cheaper.', 'Reveal the code', { launcher: 'Sale', code: 'HALFOFF', art: 'tag', tags: ['sale'] }],
  ['rewards-launcher', 'Rewards launcher', 'Earn points on every order', 'Join rewards and get 100 points to start.', 'Join rewards', { launcher: 'Rewards', fields: 'email', code: 'POINTS100', art: 'stars', tags: ['loyalty'] }],
  ['quiz-launcher', 'Quiz launcher', 'Not sure where to start?', 'Take our two-question quiz.', 'Show my picks', { launcher: 'Take the quiz', fields: 'gift-finder', art: 'sliders', tags: ['quiz'] }],
  ['callback-launcher', 'Callback launcher', 'Want us to call you?', 'Leave your number and we call back within an hour.', 'Call me', { launcher: 'Call me back', fields: 'callback', art: 'chat', tags: ['phone', 'request'] }],
  ['spin-launcher', 'Spin launcher', 'Try your luck', 'Every spin wins a discount.', 'Spin', { launcher: 'Spin to win', code: 'LUCKY15', fields: 'email', art: 'sparkle', tags: ['gamified'] }],
  ['countdown-launcher', 'Countdown launcher', 'Sale ends soon', 'Grab 25% off before the timer runs out.', 'Get 25% off', { launcher: 'Ends soon', countdown: 90, code: 'HURRY25', art: 'clock', tags: ['countdown'] }],
  ['app-launcher', 'App launcher', 'Get the app, get 10%', 'We will email you the link and your app-only code.', 'Email me the link', { launcher: 'Get the app', fields: 'email', code: 'APP10', art: 'bell', tags: ['app'] }],
  ['stock-launcher', 'Restock launcher', 'Waiting for a restock?', 'Tell us your email and we will let you know.', 'Notify me', { launcher: 'Restock alerts', fields: 'email', art: 'bell', tags: ['stock'] }],
  ['survey-launcher', 'Survey launcher', 'One-minute survey', 'How did you hear about us?', 'Send answer', { launcher: 'Quick survey', fields: 'source', art: 'megaphone', tags: ['survey'] }],
  ['referral-launcher', 'Referral launcher', 'Give 15%, get 15%', 'Invite a friend and you both save.', 'Get my link', { launcher: 'Refer a friend', fields: 'email-friend', code: 'SHARE15', art: 'heart', tags: ['referral'] }],
]

export const INSPIRED: CopyLine[] = [
  ['nordic-outdoor', 'Inspired by a Nordic outdoor brand', 'Built for the fjords', 'Field-tested gear, members get 10% and free repairs.', 'Join the club', { code: 'FJORD10', art: 'mountain', tags: ['outdoor', 'minimal'] }],
  ['parisian-beauty', 'Inspired by a Parisian beauty house', 'Le petit cadeau', 'A complimentary mini with your first order.', 'Recevoir', { code: 'CADEAU', art: 'bottle', tags: ['beauty', 'luxury'] }],
  ['streetwear-drop', 'Inspired by a streetwear label', 'DROP 07 — FRIDAY 11:00', 'No restock. Subscribers get the link an hour early.', 'Get the link', { art: 'shoe', tags: ['streetwear', 'launch'] }],
  ['scandi-home', 'Inspired by a Scandinavian home store', 'Hygge, delivered', 'Quiet design for calm homes. 10% off your first order.', 'Get 10%', { code: 'HYGGE10', art: 'plant', tags: ['home', 'minimal'] }],
  ['coffee-roaster', 'Inspired by a third-wave roaster', 'Small batch. Big flavour.', 'Join the roast list for release notes and 15% off.', 'Join the roast', { code: 'BATCH15', art: 'cup', tags: ['coffee'] }],
  ['athletic-brand', 'Inspired by an athletic brand', 'JUST RUN.', 'Members get free shipping and early access to launches.', 'Become a member', { art: 'bolt', tags: ['sports', 'bold'] }],
  ['tech-minimal', 'Inspired by a minimalist tech brand', 'Thoughtfully made.', 'Get product news and accessories offers.', 'Stay informed', { art: 'sparkle', tags: ['tech', 'minimal'] }],
  ['organic-grocer', 'Inspired by an organic grocer', 'Fresh from the farm', 'Seasonal boxes, delivered weekly. First box 20% off.', 'Claim 20%', { code: 'FARM20', art: 'leaf', tags: ['food', 'organic'] }],
  ['luxury-watch', 'Inspired by a Swiss watchmaker', 'Time, perfected', 'Be invited to private previews of new collections.', 'Request invitation', { art: 'clock', tags: ['luxury', 'watches'] }],
  ['surf-brand', 'Inspired by a California surf brand', 'Catch the next wave', 'New boardshorts every season, 10% off the first pair.', 'Paddle in', { code: 'WAVE10', art: 'wave', tags: ['surf', 'sports'] }],
  ['vintage-denim', 'Inspired by a heritage denim maker', 'Made to fade. Made to last.', 'Free hemming for subscribers. Forever.', 'Sign me up', { art: 'shirt', tags: ['fashion', 'heritage'] }],
  ['indie-bookstore', 'Inspired by an independent bookstore', 'Dear reader,', 'Our handwritten picks arrive every other Sunday.', 'Write to me', { art: 'book', tags: ['books'] }],
  ['candle-maker', 'Inspired by an artisan candle maker', 'Light something lovely', 'Join for scent launches and 10% off.', 'Join', { code: 'GLOW10', art: 'sun', tags: ['home', 'gifts'] }],
  ['pet-boutique', 'Inspired by a dog boutique', 'Good dogs get treats', 'Sign up and the first treat box is 25% off.', 'Woof, yes', { code: 'WOOF25', art: 'paw', tags: ['pets'] }],
  ['japanese-stationery', 'Inspired by a Tokyo stationery shop', 'Paper, pens, and quiet joy', 'Monthly letters on new notebooks and inks.', 'Subscribe', { art: 'book', tags: ['stationery', 'minimal'] }],
  ['craft-brewery', 'Inspired by a craft brewery', 'Fresh cans every Friday', 'Get the tap list in your inbox, plus a members’ pint.', 'Pour me in', { art: 'cup', tags: ['beer'] }],
  ['InspiredCustom-luxury-fashion', 'InspiredCustom luxury fashion house', 'The Winter Edit', 'Private access to the new season, by invitation.', 'Request access', { art: 'sparkle', tags: ['luxury', 'fashion'] }],
  ['InspiredCustom-cosmetics-quiz', 'InspiredCustom cosmetics quiz', 'Find your shade in 30 seconds', 'Two questions, one perfect match, 15% off it.', 'Find my shade', { fields: 'skin', code: 'SHADE15', art: 'bottle', tags: ['beauty', 'quiz'] }],
  ['InspiredCustom-sneaker-raffle', 'InspiredCustom sneaker raffle', 'Enter the raffle', 'One pair, 500 winners. Draw on Sunday.', 'Enter now', { fields: 'name-email', art: 'shoe', tags: ['raffle', 'shoes'] }],
  ['InspiredCustom-meal-kit', 'InspiredCustom meal kit', 'Dinner is sorted', 'Get 4 free meals with your first box.', 'Claim my meals', { code: 'DINNER4', art: 'cake', tags: ['food'] }],
  ['InspiredCustom-eco-fashion', 'InspiredCustom sustainable fashion', 'Wear it. Repair it. Pass it on.', 'Join the circular programme and get credit for old pieces.', 'Join the loop', { art: 'leaf', tags: ['sustainability', 'fashion'] }],
  ['InspiredCustom-fitness-app', 'InspiredCustom fitness app', 'Your 7-day streak starts now', 'Free week of guided workouts. Cancel any time.', 'Start free week', { art: 'bolt', tags: ['fitness', 'app'] }],
  ['InspiredCustom-travel-club', 'InspiredCustom travel club', 'Members fly for less', 'Secret fares from 200 cities, sent when they appear.', 'Become a member', { art: 'globe', tags: ['travel'] }],
  ['InspiredCustom-toy-store', 'InspiredCustom toy store', 'Playtime, delivered', 'Join the club for birthday surprises and 10% off.', 'Let us play', { fields: 'email-birthday', code: 'PLAY10', art: 'gift', tags: ['kids', 'toys'] }],
]

export const USE_CASES: SeasonLine[] = [
  ['exit-survey', 'Exit survey', 'Before you go: what stopped you?', 'One click helps us improve for the next visitor.', 'Send', { family: 'feedback', fields: 'blocker', art: 'wave', tags: ['collect feedback', 'exit intent'] }],
  ['lead-magnet-guide', 'Lead magnet guide', 'Get the free buyer’s guide', 'Everything we learned from 10,000 customers, in 12 pages.', 'Send my guide', { family: 'subscribe', fields: 'name-email', art: 'book', tags: ['build email list', 'lead magnet'] }],
  ['demo-request', 'Demo request', 'See it in action', 'Book a 20-minute demo with our team.', 'Book a demo', { family: 'feedback', fields: 'quote', art: 'sparkle', tags: ['request forms', 'b2b'] }],
  ['shopify-upsell', 'Shopify upsell', 'Complete the look', 'Add the matching belt and save 15%.', 'Add with 15% off', { family: 'sale', code: 'LOOK15', art: 'bag', tags: ['shopify', 'upsell'] }],
  ['announcement-banner', 'Announcement banner', 'New: same-day delivery in town', 'Order before 1 pm and it arrives tonight.', 'Great', { family: 'announce', art: 'truck', tags: ['make announcements'] }],
  ['wholesale-request', 'Wholesale request', 'Stock our products', 'Tell us about your store and we will send the trade catalogue.', 'Request catalogue', { family: 'feedback', fields: 'email-company', art: 'tag', tags: ['request forms', 'b2b'] }],
  ['shopify-free-gift', 'Shopify free gift', 'Free tote with orders over $60', 'Added automatically at checkout while stocks last.', 'Shop now', { family: 'sale', art: 'bag', tags: ['shopify', 'gift'] }],
  ['post-purchase-nps', 'Post-purchase rating', 'How likely are you to shop with us again?', 'Rate your experience in one tap.', 'Send rating', { family: 'feedback', fields: 'rating', art: 'stars', tags: ['collect feedback', 'rating'] }],
  ['waitlist-launch', 'Launch waitlist', 'Be the first to try it', 'Join 3,000 people on the waitlist.', 'Join waitlist', { family: 'subscribe', art: 'bell', tags: ['build email list', 'launch'] }],
  ['status-announcement', 'Status announcement', 'All systems normal', 'Yesterday’s delivery delays are fixed. Thanks for bearing with us.', 'Thanks', { family: 'announce', art: 'sun', tags: ['make announcements', 'status'] }],
]

export type SeasonFamily = 'discount' | 'sale' | 'subscribe' | 'announce' | 'launcher' | 'feedback' | 'product'
export type SeasonLine = [slug: string, name: string, headline: string, text: string, button: string, extra: CopyExtra & { family: SeasonFamily }]

export interface SeasonCopy {
  group: string
  lines: SeasonLine[]
}

export const SEASONS: SeasonCopy[] = [
  {
    group: 'halloween',
    lines: [
      ['spooky-ten', 'Spooky 10% off', 'Trick or treat? Treat: 10% off', 'Join our coven and the code appears like magic.', 'Reveal my treat', { family: 'discount', code: 'BOO10', art: 'pumpkin' }],
      ['ghost-sale', 'Ghostly sale', 'Prices have vanished', 'Up to 40% off, disappearing at midnight on the 31st.', 'Enter if you dare', { family: 'sale', code: 'GHOST40', art: 'ghost', countdown: 600 }],
      ['bat-bar', 'Bat night bar', 'Halloween weekend: free shipping on everything', 'No tricks. Just free delivery until Sunday.', 'Fly to the shop', { family: 'sale', code: 'BATSHIP', art: 'bat', layout: 'bar' }],
      ['costume-finder', 'Costume finder', 'Find your costume in 10 seconds', 'Who are you dressing up as this year?', 'Find my costume', { family: 'product', fields: 'costume', art: 'ghost' }],
      ['candy-club', 'Candy club', 'Join the candy club', 'Sweet deals all October long, straight to your inbox.', 'Sweet, sign me up', { family: 'subscribe', art: 'gift' }],
      ['haunted-countdown', 'Haunted countdown', 'The haunting begins in…', 'Our Halloween collection unlocks when the clock hits zero.', 'Remind me', { family: 'subscribe', art: 'clock', countdown: 1440 }],
      ['pumpkin-spice', 'Pumpkin spice deal', 'Pumpkin spice everything, 20% off', 'Candles, coffee and cosy knits for the season.', 'Get 20% off', { family: 'discount', code: 'SPICE20', art: 'pumpkin' }],
      ['witch-hat-launcher', 'Witch hat launcher', 'A spell for savings', 'Cast it with your email for 15% off.', 'Cast the spell', { family: 'launcher', code: 'SPELL15', art: 'sparkle', launcher: 'Boo!' }],
      ['spooky-story', 'Spooky story contest', 'Tell us your spookiest story', 'The best one wins a $100 gift card.', 'Submit my story', { family: 'feedback', fields: 'story', art: 'book' }],
      ['monster-mash', 'Monster mash party', 'Monster mash: in-store party', 'October 31, 6 pm. Costumes get a free drink.', 'I will be there', { family: 'announce', art: 'bat' }],
      ['last-chance-boo', 'Last chance Halloween', 'Last chance before the witching hour', 'Halloween deals end tonight at midnight.', 'Shop now', { family: 'sale', code: 'MIDNIGHT', art: 'clock', countdown: 240 }],
      ['trick-treat-wheel', 'Trick or treat wheel', 'Spin for a treat (no tricks, promise)', 'Every spin wins something sweet.', 'Spin', { family: 'discount', code: 'TREAT', art: 'pumpkin' }],
    ],
  },
  {
    group: 'black-friday',
    lines: [
      ['bf-early-access', 'Black Friday early access', 'Black Friday starts early for you', 'Subscribers shop every deal 48 hours before the crowd.', 'Get early access', { family: 'subscribe', art: 'bolt' }],
      ['bf-forty', 'Black Friday 40%', 'Black Friday: 40% off sitewide', 'Biggest sale of the year. Ends Monday.', 'Shop the deals', { family: 'sale', code: 'BLACK40', art: 'tag', countdown: 4320 }],
      ['bf-doorbuster', 'Doorbuster bar', 'Doorbusters every hour, on the hour', 'New deals drop at :00. Do not blink.', 'See this hour', { family: 'sale', code: 'DOOR', art: 'clock', layout: 'bar', countdown: 60 }],
      ['bf-mystery', 'Black Friday mystery deal', 'Unlock your mystery Black Friday deal', 'Up to 60% off. Only subscribers find out.', 'Unlock', { family: 'discount', code: 'MYSTERY60', art: 'lock' }],
      ['cyber-monday', 'Cyber Monday', 'Cyber Monday: online only, 35% off', 'The last big sale of the season.', 'Shop Cyber Monday', { family: 'sale', code: 'CYBER35', art: 'bolt' }],
      ['bf-gift-guide', 'Black Friday gift guide', 'Gifts for everyone, on sale', 'Tell us who you shop for and we will filter the deals.', 'Show gifts', { family: 'product', fields: 'gift-finder', art: 'gift' }],
      ['bf-free-shipping', 'Black Friday free shipping', 'Free express shipping all weekend', 'Arrives in time, whatever you order.', 'Got it', { family: 'announce', art: 'truck' }],
      ['bf-launcher', 'Black Friday launcher', 'Deals are live', 'Open for your 30% code.', 'Reveal code', { family: 'launcher', code: 'BF30', art: 'percent', launcher: 'Black Friday' }],
      ['bf-spend-save', 'Black Friday tiers', 'Spend $100, save $30', 'Spend $200, save $70. Stack it up.', 'Show my code', { family: 'discount', code: 'STACK', art: 'percent' }],
      ['bf-wishlist', 'Black Friday wishlist', 'Will it be on sale? We will tell you', 'Add your email and we will alert you on the day.', 'Watch my wishlist', { family: 'subscribe', art: 'heart' }],
    ],
  },
  {
    group: 'christmas',
    lines: [
      ['xmas-gift-guide', 'Christmas gift finder', 'Find gifts they will actually love', 'Answer two questions and we pick the presents.', 'Find gifts', { family: 'product', fields: 'gift-finder', art: 'gift' }],
      ['xmas-delivery-cutoff', 'Christmas delivery cut-off', 'Order by Dec 20 for Christmas delivery', 'Standard shipping arrives in time if you order by the 20th.', 'Thanks, noted', { family: 'announce', art: 'truck', countdown: 4320 }],
      ['xmas-fifteen', 'Christmas 15%', 'Ho ho ho: 15% off your gifts', 'Our present to you. Join the list to unwrap it.', 'Unwrap 15%', { family: 'discount', code: 'JOLLY15', art: 'tree' }],
      ['xmas-advent', 'Advent calendar', 'Open today’s advent window', 'A new surprise every day until the 24th.', 'Open today', { family: 'subscribe', art: 'snowflake' }],
      ['xmas-bar', 'Christmas free wrap bar', 'Free gift wrapping on every order', 'Hand-wrapped with a note of your choice.', 'Shop gifts', { family: 'sale', art: 'gift', layout: 'bar', code: 'WRAPPED' }],
      ['xmas-last-minute', 'Last-minute gifts', 'Last-minute? Digital gift cards arrive instantly', 'Choose an amount, add a message, done.', 'Send a gift card', { family: 'sale', code: 'EGIFT', art: 'envelope' }],
      ['xmas-launcher', 'Christmas launcher', 'Santa left you something', 'Open it for a festive surprise.', 'Open', { family: 'launcher', code: 'SANTA', art: 'gift', launcher: 'Open me' }],
      ['xmas-snow-sale', 'Snow sale', 'Let it snow, let it save', 'Winter favourites up to 30% off.', 'Shop winter', { family: 'sale', code: 'SNOW30', art: 'snowflake' }],
      ['xmas-wishlist', 'Christmas wishlist', 'Share your wishlist', 'We will send it to whoever you choose, hints included.', 'Send my wishlist', { family: 'subscribe', fields: 'email-friend', art: 'heart' }],
      ['xmas-thank-you', 'Christmas thank-you', 'Thank you for a wonderful year', 'We are closed Dec 25–26. Happy holidays from all of us.', 'Happy holidays', { family: 'announce', art: 'tree' }],
    ],
  },
  {
    group: 'valentines-day',
    lines: [
      ['val-gift-for', 'Valentine gift finder', 'Who is your valentine?', 'Tell us and we will find them something lovely.', 'Find a gift', { family: 'product', fields: 'gift-finder', art: 'heart' }],
      ['val-twenty', 'Valentine 20%', 'Love is in the air, and so is 20% off', 'Treat them, or yourself. We do not judge.', 'Get 20%', { family: 'discount', code: 'LOVE20', art: 'heart' }],
      ['val-delivery', 'Valentine delivery', 'Order by Feb 12 for Valentine’s Day', 'Flowers and gifts delivered on the day.', 'Got it', { family: 'announce', art: 'truck' }],
      ['val-bar', 'Valentine bar', 'Free love note with every order', 'Handwritten by us, signed by you.', 'Shop gifts', { family: 'sale', code: 'XOXO', art: 'envelope', layout: 'bar' }],
      ['val-galentine', 'Galentine’s offer', 'Happy Galentine’s: bring a friend', 'Buy one, get one 50% off for your best friend.', 'Share the love', { family: 'sale', code: 'BESTIES', art: 'flower' }],
      ['val-launcher', 'Valentine launcher', 'A little love from us', 'Open for 15% off anything pink or red.', 'Open', { family: 'launcher', code: 'ROSES15', art: 'heart', launcher: 'With love' }],
      ['val-date-ideas', 'Date ideas letter', '14 date ideas for February', 'One per day until Valentine’s, in your inbox.', 'Send the ideas', { family: 'subscribe', art: 'sparkle' }],
      ['val-countdown', 'Valentine countdown', 'Valentine’s Day is almost here', 'Express delivery ends soon.', 'Reveal code', { family: 'sale', code: 'CUPID', art: 'clock', countdown: 2160 }],
    ],
  },
  {
    group: 'easter',
    lines: [
      ['easter-egg-hunt', 'Easter egg hunt', 'Find the hidden egg, win 25% off', 'Enter your email to get the first clue.', 'Start the hunt', { family: 'discount', code: 'EGGHUNT', art: 'egg' }],
      ['easter-sale', 'Easter sale', 'Easter sale: spring into savings', 'Fresh styles up to 30% off for the long weekend.', 'Shop Easter', { family: 'sale', code: 'SPRING30', art: 'flower', countdown: 4320 }],
      ['easter-hours', 'Easter hours', 'Easter opening hours', 'Closed Friday and Monday. Online orders ship Tuesday.', 'Thanks', { family: 'announce', art: 'egg' }],
      ['easter-basket', 'Easter basket builder', 'Build an Easter basket', 'Pick an age and a budget and we fill it.', 'Fill my basket', { family: 'product', fields: 'gift-finder', art: 'gift' }],
      ['easter-bar', 'Easter free shipping bar', 'Hop to it: free shipping this weekend', 'On every order, no minimum.', 'Shop now', { family: 'sale', code: 'HOPSHIP', art: 'egg', layout: 'bar' }],
      ['easter-recipes', 'Easter recipes', 'Easter brunch recipes', 'Five easy dishes for the whole family.', 'Send recipes', { family: 'subscribe', art: 'cake' }],
    ],
  },
  {
    group: 'earth-day',
    lines: [
      ['earth-pledge', 'Earth Day pledge', 'Take the Earth Day pledge', 'We plant a tree for every pledge this week.', 'I pledge', { family: 'subscribe', art: 'globe' }],
      ['earth-refill', 'Refill discount', 'Refill and save 15%', 'Bring back your bottles and refills are cheaper.', 'Get the code', { family: 'discount', code: 'REFILL15', art: 'leaf' }],
      ['earth-bar', 'Earth Day bar', 'Today, 10% of sales go to reforestation', 'Every order plants more trees.', 'Shop and plant', { family: 'sale', code: 'PLANT', art: 'plant', layout: 'bar' }],
      ['earth-survey', 'Eco habits survey', 'What is your favourite green habit?', 'Share it and inspire others.', 'Share', { family: 'feedback', fields: 'eco', art: 'leaf' }],
      ['earth-notice', 'Carbon-neutral notice', 'Every delivery is now carbon-neutral', 'We offset every mile, at no cost to you.', 'Nice', { family: 'announce', art: 'globe' }],
      ['earth-launcher', 'Earth Day launcher', 'A greener gift for you', 'Open for a free seed pack with your order.', 'Claim seeds', { family: 'launcher', code: 'SEEDS', art: 'plant', launcher: 'Earth Day' }],
    ],
  },
  {
    group: 'mothers-day',
    lines: [
      ['mom-gift-finder', 'Mother’s Day gift finder', 'Find something she will love', 'Tell us what she enjoys and we will suggest gifts.', 'Show ideas', { family: 'product', fields: 'gift-finder', art: 'flower' }],
      ['mom-fifteen', 'Mother’s Day 15%', 'For the best mum: 15% off', 'Flowers, jewellery and treats for her day.', 'Get 15% off', { family: 'discount', code: 'MUM15', art: 'flower' }],
      ['mom-delivery', 'Mother’s Day delivery', 'Order by Friday for Sunday delivery', 'Send it straight to her door with a card.', 'Got it', { family: 'announce', art: 'truck' }],
      ['mom-bar', 'Mother’s Day bar', 'Free card and ribbon on gifts for mum', 'Write your message at checkout.', 'Shop gifts', { family: 'sale', code: 'MUMCARD', art: 'heart', layout: 'bar' }],
      ['mom-launcher', 'Mother’s Day launcher', 'A treat for her, a code for you', 'Open it for a Mother’s Day surprise.', 'Open', { family: 'launcher', code: 'MAMA', art: 'gift', launcher: 'For mum' }],
      ['mom-reminder', 'Mother’s Day reminder', 'Never forget Mother’s Day again', 'We will email you a week before. That is all.', 'Remind me', { family: 'subscribe', art: 'bell' }],
    ],
  },
]
