// English episodes. The questions were written before any retrieval code
// existed, as a user (or an agent serving them) would ask weeks later: in
// their own words, not the words of the turn.
import { assistant, user, type Episode } from './episode.js';

const en = (id: string, blocks: Episode['blocks'], questions: Episode['questions']): Episode => ({ id, lang: 'en', blocks, questions });

export const englishEpisodes: readonly Episode[] = [
  en(
    'sms-not-calls',
    [[user("Please don't ring me about deliveries. A text message is much better, I never pick up unknown numbers.")]],
    [{ text: 'Is it OK to phone this customer about a shipment?', gold: ['0.0'] }],
  ),
  en(
    'peanut-allergy',
    [[user("Heads up: I'm severely allergic to peanuts, so no satay or peanut sauce in any recipe you suggest.")]],
    [{ text: 'What foods must I stay away from because of my allergy?', gold: ['0.0'] }],
  ),
  en(
    'dog-biscuit',
    [
      [user('We adopted a beagle puppy last weekend and named him Biscuit!'), assistant('Congratulations! Biscuit is a lovely name.')],
      [user('Biscuit has his vaccination booster at the vet on 2 April.')],
    ],
    [
      { text: "What's my dog called?", gold: ['0.0', '0.1'] },
      { text: "When is the pet's next appointment with the animal doctor?", gold: ['1.0'] },
    ],
  ),
  en(
    'sister-wedding',
    [[user('My sister Clara is getting married on 14 June in Porto.')]],
    [{ text: "When and where is Clara's wedding?", gold: ['0.0'] }],
  ),
  en(
    'aisle-seat',
    [[user("When you book flights for me, always get an aisle seat. I'm tall and need the legroom.")]],
    [{ text: 'Window or aisle when I travel by plane?', gold: ['0.0'] }],
  ),
  en(
    'no-meat',
    [[user('I stopped eating meat in January; fish is still fine though.')]],
    [{ text: 'Am I vegetarian these days?', gold: ['0.0'] }],
  ),
  en(
    'new-job',
    [[user('I just started a new job as a data engineer at Northwind Logistics.')]],
    [{ text: 'Who is my current employer?', gold: ['0.0'] }],
  ),
  en(
    'moved-to-leeds',
    [
      [user('I live in Manchester, in a flat on Deansgate.')],
      [user('We finally moved! The new place is in Leeds, close to the train station.')],
    ],
    [{ text: 'Which city am I living in now?', gold: ['1.0'] }],
  ),
  en(
    'black-coffee',
    [[user('I take my coffee black, no sugar, and only decaf after 3pm.')]],
    [{ text: 'How do I like my coffee in the afternoon?', gold: ['0.0'] }],
  ),
  en(
    'swimming-mornings',
    [[user("I go swimming every Tuesday and Thursday before work, so don't book meetings before 10 on those days.")]],
    [{ text: 'On which mornings am I unavailable for calls with colleagues?', gold: ['0.0'] }],
  ),
  en(
    'reply-in-spanish',
    [[user("Could you answer me in Spanish from now on? I'm practising for my trip to Seville.")]],
    [{ text: 'What language should your replies be written in?', gold: ['0.0'] }],
  ),
  en(
    'mia-birthday',
    [[user('My daughter Mia turns seven on March 3rd.')]],
    [{ text: 'How old will my kid be at her next birthday?', gold: ['0.0'] }],
  ),
  en('silver-civic', [[user('My car is a silver 2017 Honda Civic.')]], [{ text: 'What vehicle do I drive?', gold: ['0.0'] }]),
  en(
    'cracked-protector',
    [[user('Order ORD-7F3K9Q2M arrived with a cracked screen protector.')]],
    [{ text: 'What was wrong with ORD-7F3K9Q2M?', gold: ['0.0'] }],
  ),
  en(
    'shoe-refund',
    [[user('I returned the blue running shoes; the refund of 89.90 euros should reach my card by Friday.')]],
    [{ text: 'How much money am I getting back for the trainers I sent back?', gold: ['0.0'] }],
  ),
  en(
    'dentist',
    [[user('I have a dentist appointment on the 22nd at 4:30 pm.')]],
    [{ text: 'When do I have to get my teeth checked?', gold: ['0.0'] }],
  ),
  en(
    'blood-pressure-pills',
    [[user('Remind me to take my blood pressure pills every evening at 9.')]],
    [{ text: 'What medicine do I need at night?', gold: ['0.0'] }],
  ),
  en(
    'singapore-time',
    [[user("I'm based in Singapore, so please schedule calls in SGT.")]],
    [{ text: 'Which time zone should meeting invites use for me?', gold: ['0.0'] }],
  ),
  en(
    'hotel-budget',
    [[user('Keep hotel suggestions under 150 dollars a night.')]],
    [{ text: "What's my nightly budget for accommodation?", gold: ['0.0'] }],
  ),
  en(
    'manager-priya',
    [[user('My manager is Priya Raman; she approves all my expense reports.')]],
    [{ text: 'Who signs off my expenses?', gold: ['0.0'] }],
  ),
  en(
    'clothing-sizes',
    [[user("For clothes shopping: I'm a medium in shirts and a 44 in shoes.")]],
    [{ text: 'What shoe size should you order for me?', gold: ['0.0'] }],
  ),
  en(
    'no-promo-emails',
    [[user('Unsubscribe me from the weekly promo emails, they are just spam to me.')]],
    [{ text: 'Does this person want marketing newsletters?', gold: ['0.0'] }],
  ),
  en(
    'parcel-locker',
    [[user('I prefer picking up parcels at the locker on King Street rather than having them brought to the house.')]],
    [{ text: 'Where should packages be delivered for me?', gold: ['0.0'] }],
  ),
  en(
    'anniversary',
    [[user('Our wedding anniversary is October 9. Remind me a week before so I can book a dinner.')]],
    [{ text: 'When do I need to plan something special for my husband?', gold: ['0.0'] }],
  ),
  en(
    'book-club',
    [[user("I'm reading The Overstory for my book club; we meet on the first Monday of every month.")]],
    [{ text: 'When does my reading group get together?', gold: ['0.0'] }],
  ),
  en(
    'fiddle-leaf-fig',
    [[user('My fiddle leaf fig only needs water every ten days, it hates wet soil.')]],
    [{ text: 'How often should I water the houseplant?', gold: ['0.0'] }],
  ),
  en(
    'work-laptop',
    [[user('My work laptop is a ThinkPad X1 running Ubuntu 22.04.')]],
    [{ text: 'What operating system is on my computer?', gold: ['0.0'] }],
  ),
  en(
    'fibre-outage',
    [[user('The fibre connection dropped three times this week. I opened ticket INC-55120 with Vodafone.')]],
    [{ text: "What's the reference number of my internet complaint?", gold: ['0.0'] }],
  ),
  en(
    'tokyo-flight',
    [[user("I'm flying to Tokyo on the 5th of May, flight JL44 from Heathrow.")]],
    [{ text: 'Which flight number do I have for the Japan trip?', gold: ['0.0'] }],
  ),
  en(
    'quiet-room',
    [[user("I always want a quiet room away from the lift; I'm a very light sleeper.")]],
    [{ text: 'Any special requests when booking a hotel for me?', gold: ['0.0'] }],
  ),
  en(
    'less-sugar',
    [[user("I'm trying to cut down on sugar, so no dessert ideas please.")]],
    [{ text: 'Should you suggest sweets to me?', gold: ['0.0'] }],
  ),
  en(
    'jazz-focus',
    [[user('Put on jazz while I work; anything by Bill Evans is perfect.')]],
    [{ text: 'What kind of music helps me concentrate?', gold: ['0.0'] }],
  ),
  en(
    'arsenal',
    [[user("I support Arsenal. Don't even mention Tottenham to me.")]],
    [{ text: 'Which football team am I a fan of?', gold: ['0.0'] }],
  ),
  en('my-birthday', [[user('My birthday is on 12 August.')]], [{ text: 'What is my date of birth?', gold: ['0.0'] }]),
  en(
    'brother-tom',
    [[user('If anything happens to me, contact my brother Tom; his number is in my profile.')]],
    [{ text: 'Who is my emergency contact?', gold: ['0.0'] }],
  ),
  en(
    'home-insurance',
    [[user('My home insurance renews on 1 September with Aviva, policy number HX-20931.')]],
    [{ text: 'When does the house cover run out?', gold: ['0.0'] }],
  ),
  en(
    'mum-scarf',
    [[user("For my mum's birthday I'm thinking of a silk scarf; she loves green.")]],
    [{ text: 'What present did I have in mind for my mother?', gold: ['0.0'] }],
  ),
  en(
    'office-printer',
    [[user('The office printer on floor 3 jams with recycled paper, use the one on floor 2 instead.')]],
    [{ text: 'Which printer should I send documents to?', gold: ['0.0'] }],
  ),
  en(
    'cycle-commute',
    [[user('I cycle to work, about 25 minutes each way.')]],
    [{ text: 'How do I get to the office every day?', gold: ['0.0'] }],
  ),
  en(
    'cancel-netflix',
    [[user('Cancel my Netflix at the end of the month, we barely watch it.')]],
    [{ text: 'Which streaming service am I dropping?', gold: ['0.0'] }],
  ),
  en(
    'sales-deck',
    [[user('The quarterly review with the board is on the 30th, and I need the sales deck ready by the 28th.')]],
    [{ text: 'When are the slides for the board meeting due?', gold: ['0.0'] }],
  ),
  en(
    'school-pickup',
    [[user("Mia's school pickup is at 3:15; my partner handles Wednesdays.")]],
    [{ text: 'Who collects Mia from school midweek?', gold: ['0.0'] }],
  ),
  en(
    'spare-key',
    [[user('Our neighbour at number 12, Mr. Okafor, keeps a spare key to our house.')]],
    [{ text: 'Who else can get into my home if I lock myself out?', gold: ['0.0'] }],
  ),
  en(
    'washer-warranty',
    [[user('The washing machine warranty runs until November 2027; the receipt is in my inbox.')]],
    [{ text: 'Is the washer still under guarantee?', gold: ['0.0'] }],
  ),
  en(
    'colour-blind',
    [[user("I'm colour blind, so don't rely on red versus green in the charts you make for me.")]],
    [{ text: 'Anything to keep in mind about colours when drawing graphs for me?', gold: ['0.0'] }],
  ),
  en(
    'cello-lessons',
    [[user("I've started learning the cello; lessons are on Saturday mornings.")]],
    [{ text: 'What instrument am I studying?', gold: ['0.0'] }],
  ),
  en(
    'mortgage-rate',
    [[user('Our mortgage rate is fixed at 3.9% until 2028.')]],
    [{ text: 'What interest do we pay on the home loan?', gold: ['0.0'] }],
  ),
  en(
    'monthly-report-format',
    [
      [user('Send me the monthly report as a PDF attachment, please.')],
      [user('Actually, send the monthly report as a Google Sheets link from now on, not a PDF.')],
    ],
    [{ text: 'In what format do I want the monthly report these days?', gold: ['1.0'] }],
  ),
  en(
    'ship-to-home',
    [
      [user('Ship everything to my office at 20 Canary Wharf.')],
      [user("I'm working from home now, so send parcels to the house instead of the office.")],
    ],
    [{ text: 'Where should my orders go at the moment?', gold: ['1.0'] }],
  ),
  en(
    'no-alcohol',
    [[user("I don't drink alcohol, so skip the wine pairings.")]],
    [{ text: 'Should you recommend a wine with dinner?', gold: ['0.0'] }],
  ),
  en(
    'air-fryer',
    [[user('I only have an air fryer and a microwave at home, no oven.')]],
    [{ text: 'What kitchen appliances can I cook with?', gold: ['0.0'] }],
  ),
  en(
    'falcon-launch',
    [[user("Project Falcon's launch slipped to 18 July because of the API migration.")]],
    [{ text: 'When is Falcon going live now?', gold: ['0.0'] }],
  ),
  en(
    'audiobooks',
    [[user('I prefer audiobooks over paper books because of my long commute.')]],
    [{ text: 'Do I like listening to books or reading them?', gold: ['0.0'] }],
  ),
  en(
    'half-marathon',
    [[user("I'm training for the Berlin half marathon in September.")]],
    [{ text: 'What race am I preparing for?', gold: ['0.0'] }],
  ),
  en(
    'gluten',
    [[user('My partner Sam is coeliac, so anything I cook for the two of us has to be gluten free.')]],
    [{ text: 'Are there dietary restrictions for meals I make at home?', gold: ['0.0'] }],
  ),
  en(
    'gym-cancel',
    [[user('I cancelled my gym membership at PureGym; the last payment is on the 1st.')]],
    [{ text: 'Am I still a member of a fitness club?', gold: ['0.0'] }],
  ),
  en(
    'passport-renewal',
    [[user('My passport expires in February, I need to renew it before the Tokyo trip.')]],
    [{ text: 'Which travel document needs renewing soon?', gold: ['0.0'] }],
  ),
  en(
    'quiet-hours',
    [[user('No notifications between 10 pm and 7 am, I need my sleep.')]],
    [{ text: 'When should we avoid pinging this user?', gold: ['0.0'] }],
  ),
  en(
    'broken-headphones',
    [
      [
        user("My Sony headphones stopped charging, I'm sending them in for repair under order ORD-4QW8ZT1N."),
        assistant("I'm sorry to hear that. I'll keep track of the repair for ORD-4QW8ZT1N."),
      ],
      [user('The repair shop says the headphones will be back in two weeks.')],
    ],
    [{ text: 'What is happening with my earphones?', gold: ['0.0', '0.1', '1.0'] }],
  ),
  en(
    'standing-desk',
    [[user('My back hurts, so I switched to a standing desk in the afternoons.')]],
    [{ text: 'Why did I change how I sit at work?', gold: ['0.0'] }],
  ),
];
