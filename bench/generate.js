// Deterministic benchmark data: N rows x 10 columns of Italian public-administration-like
// records, semicolon-separated as Italian PA exports are. Same seed, same bytes, every run.
import { createWriteStream } from 'node:fs';

const REGIONI = [
  'Piemonte',
  "Valle d'Aosta",
  'Lombardia',
  'Trentino-Alto Adige',
  'Veneto',
  'Friuli-Venezia Giulia',
  'Liguria',
  'Emilia-Romagna',
  'Toscana',
  'Umbria',
  'Marche',
  'Lazio',
  'Abruzzo',
  'Molise',
  'Campania',
  'Puglia',
  'Basilicata',
  'Calabria',
  'Sicilia',
  'Sardegna',
];
const PROVINCE =
  'AG AL AN AO AP AQ AR AT AV BA BG BI BL BN BO BR BS BT BZ CA CB CE CH CL CN CO CR CS CT CZ EN FC FE FG FI FM FR GE GO GR IM IS KR LC LE LI LO LT LU MB MC ME MI MN MO MS MT NA NO NU OR PA PC PD PE PG PI PN PO PR PT PU PV PZ RA RC RE RG RI RM RN RO SA SI SO SP SR SS SU SV TA TE TN TO TP TR TS TV UD VA VB VC VE VI VR VT VV'.split(
    ' ',
  );
const CATEGORIE = [
  'Istruzione',
  'Sanità',
  'Trasporti',
  'Ambiente',
  'Cultura',
  'Turismo',
  'Sport',
  'Lavoro',
  'Politiche sociali',
  'Edilizia',
  'Urbanistica',
  'Polizia locale',
  'Anagrafe',
  'Tributi',
  'Commercio',
  'Agricoltura',
  'Industria',
  'Energia',
  'Rifiuti',
  'Acquedotto',
  'Viabilità',
  'Protezione civile',
  'Biblioteche',
  'Musei',
  'Giovani',
  'Anziani',
  'Famiglia',
  'Casa',
  'Verde pubblico',
  'Cimiteri',
  'Mercati',
  'Fiere',
  'Innovazione',
  'Digitale',
  'Personale',
  'Bilancio',
  'Patrimonio',
  'Contratti',
  'Appalti',
  'Trasparenza',
];
const COMUNI_STEMS = ['San', 'Santa', 'Monte', 'Castel', 'Villa', 'Borgo', 'Porto', 'Torre', 'Rocca', 'Pieve'];
const COMUNI_NAMES = [
  'Giovanni',
  'Maria',
  'Pietro',
  'Lorenzo',
  'Martino',
  'Vito',
  'Nicola',
  'Angelo',
  'Marco',
  'Paolo',
  'Cesare',
  'Franco',
  'Rosso',
  'Bianco',
  'Verde',
  'Alto',
  'Basso',
  'Nuovo',
  'Vecchio',
  'Lago',
  'Fiume',
  'Colle',
  'Piano',
  'Valle',
  'Sole',
  'Luna',
  'Stella',
  'Mare',
  'Bosco',
  'Campo',
  'Ponte',
  'Forte',
  'Ducale',
  'Reale',
];
// Common Italian words (frequent) first, then rarer ones: the Zipf draw makes the head common.
const WORDS = (
  'servizio comune città cittadini pubblico scuola ospedale strada piazza acqua energia rifiuti trasporto ' +
  'bilancio spesa entrata cultura sport turismo lavoro sanità sociale ambiente edilizia urbanistica polizia ' +
  'anagrafe tributi commercio agricoltura industria progetto intervento manutenzione lavori ufficio sportello ' +
  'domanda contributo bando avviso graduatoria delibera determina ordinanza regolamento piano programma ' +
  'finanziamento fondi europei regionali statali comunali provinciali impianto illuminazione riqualificazione ' +
  'sicurezza prevenzione emergenza protezione civile volontariato associazioni famiglie anziani giovani bambini ' +
  'studenti docenti insegnanti biblioteca museo teatro cinema festival mercato fiera evento manifestazione ' +
  'parcheggio viabilità traffico mobilità sostenibile ciclabile pedonale autobus treno stazione fermata linea ' +
  'orario tariffa abbonamento biglietto rimborso pagamento fattura ricevuta certificato documento identità ' +
  'residenza cambio indirizzo nascita matrimonio morte cittadinanza elettorale tessera scheda seggio voto ' +
  'raccolta differenziata carta plastica vetro organico ingombranti isola ecologica compostaggio verde parco ' +
  'giardino albero potatura irrigazione fontana monumento restauro chiesa palazzo castello torre ponte fiume ' +
  'lago montagna collina pianura costa spiaggia porto aeroporto ferrovia autostrada tangenziale rotatoria ' +
  'semaforo segnaletica marciapiede asfalto buca cantiere ditta appalto gara offerta aggiudicazione contratto ' +
  'convenzione accordo protocollo intesa collaborazione partecipazione consultazione trasparenza accesso atti ' +
  'privacy dati digitale innovazione rete internet connessione portale piattaforma applicazione sistema'
).split(' ');
const RARE_SYLLABLES = ['ba', 'ce', 'di', 'fo', 'gu', 'la', 'me', 'ni', 'po', 'ru', 'sa', 'te', 'vi', 'zo', 'gli', 'sci'];

export function* rows(count, seed = 20261121) {
  let state = seed >>> 0;
  const random = () => {
    // xorshift32: fast and identical on every machine
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const zipfWord = () => {
    // 90%: a word from the list with a Zipf-like bias; 10%: a rare made-up Italian-sounding word.
    if (random() < 0.9) return WORDS[Math.floor(WORDS.length * random() ** 2.2)];
    let w = '';
    for (let i = 0; i < 3; i++) w += pick(RARE_SYLLABLES);
    return `${w}${Math.floor(random() * 200)}`;
  };
  const day0 = Date.UTC(2015, 0, 1);
  for (let i = 1; i <= count; i++) {
    const regione = pick(REGIONI);
    const words = [];
    const n = 5 + Math.floor(random() * 8);
    for (let k = 0; k < n; k++) words.push(zipfWord());
    const date = new Date(day0 + Math.floor(random() * 3650) * 86400000).toISOString().slice(0, 10);
    yield [
      i,
      String(Math.floor(random() * 110000)).padStart(6, '0'),
      `${pick(COMUNI_STEMS)} ${pick(COMUNI_NAMES)}`,
      pick(PROVINCE),
      regione,
      date,
      (random() * 100000).toFixed(2),
      pick(CATEGORIE),
      `"${words.join(' ')}"`,
      random() < 0.5 ? 'true' : 'false',
    ].join(';');
  }
}

export const HEADER = 'id;codice_comune;comune;provincia;regione;data;importo;categoria;descrizione;attivo';
export { REGIONI, CATEGORIE, PROVINCE, WORDS };

export function writeCsv(path, count) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('error', reject);
    const it = rows(count);
    out.write(`${HEADER}\n`);
    const pump = () => {
      let chunk = '';
      for (let k = 0; k < 5000; k++) {
        const next = it.next();
        if (next.done) {
          out.end(chunk, resolve);
          return;
        }
        chunk += `${next.value}\n`;
      }
      if (out.write(chunk)) setImmediate(pump);
      else out.once('drain', pump);
    };
    pump();
  });
}
