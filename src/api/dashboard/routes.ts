/**
 * The account dashboard's sign-in (issue 32, first part): one-time links from the admin API,
 * passwords, sessions in an HttpOnly, Secure, SameSite=Strict cookie, sign-out here and
 * everywhere. Pages are server-rendered and work without JavaScript. A session never works as an
 * API key (the API reads only X-API-Key) and an API key never opens a page (pages read only the
 * cookie). Every state-changing request must come from this origin (Origin header), and sign-in
 * attempts are rate-limited per (email, address), per email and per address.
 */
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { PASSWORD_MAX, PASSWORD_MIN, hashPassword, verifyPassword } from '../../service/auth/passwords';
import { SESSION_COOKIE, SESSION_DAYS, createSession, endAllSessions, endOtherSessions, endSession, signInLinkUsable, spendSignInLink } from '../../service/auth/sessions';
import { pageHeaders } from '../middleware/security-headers';
import { clientAddress } from '../middleware/auth';
import { COPY_SCRIPT } from './key-pages';
import { formatRub } from '../../lib/money';
import { page, signInPage, signUpPage, passwordPage, overviewPage, messagePage, signInLinkPage, STYLE_CSS } from './pages';
import { config } from '../../service/env';
import { createAccount, isDuplicateEmail, normalizeEmail } from '../../service/storage/accounts';
import { currentAccount, type DashboardContext } from './session';
import { keyRoutes } from './keys';
import { t, withLanguage } from './i18n';
import { historyRoutes } from './history';

/**
 * Sign-in attempts allowed (issue 40: limits that do not lock the owner out):
 * - per (email, client address): a burst of 5, then one every 12 s: one client guessing one
 *   account's password. Another client (the owner) is not slowed by it.
 * - per email over every address: a burst of 20, then one every 3 s: guessing spread over many
 *   addresses. One address's own limit (one every 12 s) cannot drain it, so locking the owner out
 *   takes many addresses at once, and lasts seconds after they stop.
 * - per client address over every email: a burst of 20, then one every 3 s (one office behind one
 *   address), against trying one password on many accounts.
 * The client address is the one the platform gives (middleware/auth.ts clientAddress); when none is
 * trusted every client shares one address, and these limits are per email and service-wide.
 */
const PER_PAIR = { perSecond: 1 / 12, burst: 5 };
const PER_EMAIL = { perSecond: 1 / 3, burst: 20 };
const PER_ADDRESS = { perSecond: 1 / 3, burst: 20 };

export function dashboardRoutes() {
  const routes = new Hono<AppEnv>();

  // CSP (only the dashboard's own inline style and copy script run), no framing, no Referer, and
  // never cached: pages show keys, the webhook secret and account data.
  routes.use('*', pageHeaders({ scripts: [COPY_SCRIPT], styles: [STYLE_CSS], formsSelf: true }, { noStore: true }));
  routes.use('*', withLanguage);
  // Cross-site requests change nothing: a POST must carry this origin's Origin header.
  routes.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.header('origin') !== new URL(c.req.url).origin) {
      return c.html(page(t('Refused'), messagePage(t('This request did not come from the dashboard itself, so nothing was changed.'))), 403);
    }
    await next();
  });

  // Registered after the middleware above, which every page and form passes through.
  addSignInRoutes(routes);
  addSignUpRoutes(routes);
  addSignInLinkRoutes(routes);
  addPasswordRoutes(routes);
  addSignOutRoutes(routes);

  routes.route('/', keyRoutes());
  routes.route('/', historyRoutes());

  routes.get('/', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const account = await c.env.DB.prepare('SELECT email, plan, balance_kopecks FROM accounts WHERE id = ?').bind(accountId).first<{ email: string; plan: string; balance_kopecks: number }>();
    if (!account) return c.redirect('/dashboard/sign-in', 303);
    return c.html(page(t('Account'), overviewPage({ email: account.email, plan: account.plan, balance: formatRub(account.balance_kopecks) })));
  });

  return routes;
}

type DashboardRoutes = Hono<AppEnv>;

/** Sign-in by email and password, rate-limited (PER_PAIR, PER_ADDRESS, PER_EMAIL). */
function addSignInRoutes(routes: DashboardRoutes): void {
  routes.get('/sign-in', (c) => c.html(page(t('Sign in'), signInPage())));

  routes.post('/sign-in', async (c) => {
    const form = await c.req.parseBody();
    const email = normalizeEmail(String(form.email ?? ''));
    const password = String(form.password ?? '');
    const address = clientAddress(c);
    // In this order, each taken only if the one before allowed: a client over its own limit spends nothing of the email's.
    if (
      !(await allowAttempt(c, `sign-in:pair:${address}:${email}`, PER_PAIR)) ||
      !(await allowAttempt(c, `sign-in:ip:${address}`, PER_ADDRESS)) ||
      !(await allowAttempt(c, `sign-in:email:${email}`, PER_EMAIL))
    ) {
      return c.html(page(t('Sign in'), signInPage(t('Too many attempts. Wait a minute and try again.'), email)), 429);
    }
    const account = await c.env.DB.prepare('SELECT id, password_hash FROM accounts WHERE lower(email) = ?').bind(email).first<{ id: string; password_hash: string | null }>();
    if (!account || !(await verifyPassword(password, account.password_hash))) {
      return c.html(page(t('Sign in'), signInPage(t('The email or the password is wrong.'), email)), 401);
    }
    await startSession(c, account.id);
    return c.redirect('/dashboard', 303);
  });
}

/** Self-service sign-up, when SIGNUP_ENABLED: a free-plan account, its password, a session. */
function addSignUpRoutes(routes: DashboardRoutes): void {
  routes.get('/sign-up', (c) => (config(c.env).signupEnabled ? c.html(page(t('Open an account'), signUpPage())) : c.html(page(t('Sign-up is closed'), messagePage(t('Accounts are opened by the service\'s operator here.'))), 404)));

  routes.post('/sign-up', async (c) => {
    if (!config(c.env).signupEnabled) return c.html(page(t('Sign-up is closed'), messagePage(t('Accounts are opened by the service\'s operator here.'))), 404);
    const form = await c.req.parseBody();
    const email = normalizeEmail(String(form.email ?? ''));
    const [password, again] = [String(form.password ?? ''), String(form.again ?? '')];
    if (!(await allowAttempt(c, `sign-up:ip:${clientAddress(c)}`, PER_ADDRESS))) return c.html(page(t('Open an account'), signUpPage(t('Too many attempts. Wait a minute and try again.'), email)), 429);
    const problem = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254 ? t('Give a valid email address.') : passwordProblem(password, again);
    if (problem) return c.html(page(t('Open an account'), signUpPage(problem, email)), 422);
    const exists = () => c.html(page(t('Open an account'), signUpPage(t('An account with this email exists: sign in instead.'), email)), 409);
    if (await c.env.DB.prepare('SELECT 1 FROM accounts WHERE lower(email) = ?').bind(email).first()) return exists();
    let account;
    try {
      account = await createAccount(c.env.DB, { email, plan: 'free', balance_kopecks: 0, purchased_at: null });
    } catch (err) {
      if (isDuplicateEmail(err)) return exists(); // opened by a concurrent request
      throw err;
    }
    await c.env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword(password), account.id).run();
    await startSession(c, account.id);
    return c.redirect('/dashboard', 303);
  });
}

/**
 * A one-time link (first access, password reset). Opening it (GET, HEAD) spends nothing: mail
 * scanners and link previews open links too. Its page's button (POST) spends it, then a password is set.
 */
function addSignInLinkRoutes(routes: DashboardRoutes): void {
  const linkGone = (c: Context<AppEnv>) => c.html(page(t('Link not valid'), messagePage(t('This sign-in link was used already or has expired. Ask for a new one.'))), 410);
  routes.get('/link/:token', async (c) => {
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'cache-control': 'no-store' });
    const token = c.req.param('token');
    if (!(await signInLinkUsable(c.env.DB, token))) return linkGone(c);
    return c.html(page(t('Sign in'), signInLinkPage(token)));
  });
  routes.post('/link/:token', async (c) => {
    const accountId = await spendSignInLink(c.env.DB, c.req.param('token'));
    if (!accountId) return linkGone(c);
    await startSession(c, accountId);
    return c.redirect('/dashboard/password', 303);
  });
}

/** Setting the password of the account signed in (after a one-time link, or to change it). */
function addPasswordRoutes(routes: DashboardRoutes): void {
  routes.get('/password', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    return c.html(page(t('Password'), passwordPage()));
  });

  routes.post('/password', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const form = await c.req.parseBody();
    const [password, again] = [String(form.password ?? ''), String(form.again ?? '')];
    const problem = passwordProblem(password, again);
    if (problem) return c.html(page(t('Password'), passwordPage(problem)), 422);
    await c.env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword(password), accountId).run();
    // Whoever signed in with the old password (or a stolen cookie) is signed out; this session stays.
    await endOtherSessions(c.env.DB, accountId, getCookie(c, SESSION_COOKIE));
    return c.redirect('/dashboard', 303);
  });
}

/** Signing out this session, or every session of the account. */
function addSignOutRoutes(routes: DashboardRoutes): void {
  routes.post('/sign-out', async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await endSession(c.env.DB, token);
    deleteCookie(c, SESSION_COOKIE, { path: '/dashboard', secure: true });
    return c.redirect('/dashboard/sign-in', 303);
  });

  routes.post('/sign-out-everywhere', async (c) => {
    const accountId = await currentAccount(c);
    if (accountId) await endAllSessions(c.env.DB, accountId);
    deleteCookie(c, SESSION_COOKIE, { path: '/dashboard', secure: true });
    return c.redirect('/dashboard/sign-in', 303);
  });
}

function passwordProblem(password: string, again: string): string | null {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return t('A password has {min} to {max} characters.', { min: PASSWORD_MIN, max: PASSWORD_MAX });
  return password !== again ? t('The two passwords differ.') : null;
}

async function startSession(c: DashboardContext, accountId: string): Promise<void> {
  const { token } = await createSession(c.env.DB, accountId);
  setCookie(c, SESSION_COOKIE, token, { path: '/dashboard', httpOnly: true, secure: true, sameSite: 'Strict', maxAge: SESSION_DAYS * 86_400 });
}

async function allowAttempt(c: DashboardContext, key: string, rate: { perSecond: number; burst: number }): Promise<boolean> {
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(key));
  return (await limiter.take(rate.perSecond, rate.burst)) === 0;
}
