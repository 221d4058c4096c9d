--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: public; Type: SCHEMA; Schema: -; Owner: -
--



--
-- Name: audit_anchor_forward_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_anchor_forward_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         if tg_op = 'DELETE' then
           raise exception 'audit_anchor cannot be removed' using errcode = 'insufficient_privilege';
         end if;
         if tg_op = 'UPDATE' and new.last_purged_seq < old.last_purged_seq then
           raise exception 'audit_anchor moves only forward' using errcode = 'insufficient_privilege';
         end if;
         if not exists (select 1 from audit_event e where e.seq = new.last_purged_seq and e.hash = new.last_purged_hash
                        and e.occurred_at < audit_retention_cutoff()) then
           raise exception 'audit_anchor must name an entry older than the retention period' using errcode = 'insufficient_privilege';
         end if;
         return new;
       end
       $$;


--
-- Name: audit_head_follow(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_head_follow() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         insert into audit_head (singleton, head_seq, head_hash) values (true, new.seq, new.hash)
           on conflict (singleton) do update set head_seq = excluded.head_seq, head_hash = excluded.head_hash;
         return null;
       end
       $$;


--
-- Name: audit_head_guard(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_head_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         if pg_trigger_depth() < 2 then
           raise exception 'audit_head is kept by the audit log itself' using errcode = 'insufficient_privilege';
         end if;
         return coalesce(new, old);
       end
       $$;


--
-- Name: audit_purge(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_purge(cutoff timestamp with time zone) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
       declare
         last_row audit_event%rowtype;
         removed bigint;
       begin
         -- From the oldest end only: the newest entry before the first one that must be kept.
         select * into last_row from audit_event
          where seq < coalesce((select min(seq) from audit_event where occurred_at >= least(cutoff, audit_retention_cutoff())), 9223372036854775807)
          order by seq desc limit 1;
         if not found then
           return 0;
         end if;
         insert into audit_anchor (singleton, last_purged_seq, last_purged_hash) values (true, last_row.seq, last_row.hash)
           on conflict (singleton) do update set last_purged_seq = excluded.last_purged_seq, last_purged_hash = excluded.last_purged_hash, purged_at = now();
         perform set_config('docqa.audit_purge', 'on', true);
         delete from audit_event where seq <= last_row.seq;
         get diagnostics removed = row_count;
         perform set_config('docqa.audit_purge', 'off', true);
         return removed;
       end
       $$;


--
-- Name: audit_refuse_change(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         if tg_op = 'DELETE' and current_setting('docqa.audit_purge', true) = 'on'
            and old.occurred_at < audit_retention_cutoff()
            and old.seq <= coalesce((select last_purged_seq from audit_anchor), 0) then
           return old;
         end if;
         raise exception 'audit_event is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
       end
       $$;


--
-- Name: audit_retention_cutoff(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.audit_retention_cutoff() RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $$
         select now() - make_interval(days => greatest(1, coalesce(
           (select (value #>> '{}')::int from runtime_setting where key = 'RAG_AUDIT_RETENTION_DAYS'), 365)))
       $$;


--
-- Name: chunk_delete_postings(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.chunk_delete_postings() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         delete from chunk_term t using removed_chunks r where t.chunk_id = r.id;
         return null;
       end $$;


--
-- Name: document_delete_chunks(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.document_delete_chunks() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         delete from chunk where document_id = old.id;
         return old;
       end $$;


--
-- Name: term_stats_add(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.term_stats_add(deltas jsonb) RETURNS void
    LANGUAGE plpgsql
    AS $$
       begin
         if deltas is null or deltas = '{}'::jsonb then return; end if;
         perform pg_advisory_xact_lock(218922533);
         insert into term_stats (term, df)
           select d.key, d.value::integer from jsonb_each_text(deltas) d order by d.key
           on conflict (term) do update set df = term_stats.df + excluded.df;
         delete from term_stats s where s.df = 0 and s.term in (select jsonb_object_keys(deltas));
       end $$;


--
-- Name: term_stats_document_status(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.term_stats_document_status() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       begin
         perform term_stats_add((select jsonb_object_agg(p.term, case when new.status = 'indexed' then p.n else -p.n end) from (
           select t.term, count(*) as n from chunk c join chunk_term t on t.chunk_id = c.id where c.document_id = new.id group by t.term) p));
         return null;
       end $$;


--
-- Name: term_stats_postings(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.term_stats_postings() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
       declare
         direction integer := case when tg_op = 'INSERT' then 1 else -1 end;
       begin
         -- Most statements (an ingest's) touch one document, not indexed yet: check that first.
         if not exists (select 1 from document d where d.status = 'indexed' and d.id in (select distinct c.document_id from changed_postings c)) then
           return null;
         end if;
         perform term_stats_add((select jsonb_object_agg(p.term, direction * p.n) from (
           select c.term, count(*) as n from changed_postings c join document d on d.id = c.document_id and d.status = 'indexed' group by c.term) p));
         return null;
       end $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: active_model; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.active_model (
    purpose text NOT NULL,
    name text NOT NULL,
    file text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by text,
    CONSTRAINT active_model_purpose_check CHECK ((purpose = ANY (ARRAY['chat'::text, 'embedding'::text])))
);


--
-- Name: api_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_key (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL,
    prefix text NOT NULL,
    key_hash text NOT NULL,
    scopes text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT api_key_scopes_check CHECK (((scopes <@ ARRAY['read'::text, 'write'::text, 'admin'::text]) AND (cardinality(scopes) > 0)))
);


--
-- Name: app_user; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.app_user (
    id uuid NOT NULL,
    username text NOT NULL,
    email text,
    password_hash text,
    role text NOT NULL,
    token_version integer DEFAULT 0 NOT NULL,
    mfa_secret text,
    mfa_enabled boolean DEFAULT false NOT NULL,
    mfa_last_counter bigint,
    mfa_recovery_hashes jsonb DEFAULT '[]'::jsonb NOT NULL,
    sso_provider text,
    sso_subject text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT app_user_role_check CHECK ((role = ANY (ARRAY['admin'::text, 'editor'::text, 'viewer'::text])))
);


--
-- Name: audit_anchor; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_anchor (
    singleton boolean DEFAULT true NOT NULL,
    last_purged_seq bigint NOT NULL,
    last_purged_hash text NOT NULL,
    purged_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audit_anchor_singleton_check CHECK (singleton)
);


--
-- Name: audit_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_event (
    seq bigint NOT NULL,
    id uuid NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    type text NOT NULL,
    actor_id uuid,
    actor_username text,
    ip text,
    target text,
    outcome text NOT NULL,
    details jsonb NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    CONSTRAINT audit_event_outcome_check CHECK ((outcome = ANY (ARRAY['success'::text, 'failure'::text])))
);


--
-- Name: audit_event_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.audit_event ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.audit_event_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: audit_head; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_head (
    singleton boolean DEFAULT true NOT NULL,
    head_seq bigint NOT NULL,
    head_hash text NOT NULL,
    CONSTRAINT audit_head_singleton_check CHECK (singleton)
);


--
-- Name: branding; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.branding (
    singleton boolean DEFAULT true NOT NULL,
    settings jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT branding_singleton_check CHECK (singleton)
);


--
-- Name: branding_logo; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.branding_logo (
    singleton boolean DEFAULT true NOT NULL,
    media_type text NOT NULL,
    bytes bytea NOT NULL,
    sha256 text NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT branding_logo_singleton_check CHECK (singleton)
);


--
-- Name: chunk; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chunk (
    id uuid NOT NULL,
    document_id uuid NOT NULL,
    "position" integer NOT NULL,
    text text NOT NULL,
    heading_path text[] DEFAULT '{}'::text[] NOT NULL,
    kind text NOT NULL,
    page_start integer,
    page_end integer,
    char_start integer NOT NULL,
    char_end integer NOT NULL,
    token_count integer NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    term_count integer DEFAULT 0 NOT NULL,
    language text,
    text_length integer GENERATED ALWAYS AS (char_length(text)) STORED,
    CONSTRAINT chunk_kind_check CHECK ((kind = ANY (ARRAY['text'::text, 'table'::text])))
);


--
-- Name: chunk_term; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chunk_term (
    term text NOT NULL,
    chunk_id uuid NOT NULL,
    document_id uuid NOT NULL,
    tf integer NOT NULL,
    chunk_length integer NOT NULL
);


--
-- Name: conversation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.conversation (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    title text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: conversation_turn; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.conversation_turn (
    id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    "position" integer NOT NULL,
    query text NOT NULL,
    rewritten_query text,
    answer text NOT NULL,
    sources jsonb NOT NULL,
    retrieval_settings jsonb NOT NULL,
    token_budget jsonb,
    timing jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: docqa_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.docqa_migrations (
    id integer NOT NULL,
    name character varying(255) NOT NULL,
    executed_at timestamp(6) with time zone DEFAULT CURRENT_TIMESTAMP(6) NOT NULL
);


--
-- Name: docqa_migrations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.docqa_migrations_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: docqa_migrations_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.docqa_migrations_id_seq OWNED BY public.docqa_migrations.id;


--
-- Name: document; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.document (
    id uuid NOT NULL,
    source_type text DEFAULT 'upload'::text NOT NULL,
    source_id text,
    path text NOT NULL,
    filename text NOT NULL,
    media_type text NOT NULL,
    size_bytes bigint NOT NULL,
    content_hash text NOT NULL,
    status text NOT NULL,
    error text,
    job_id uuid,
    title text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    chunk_count integer DEFAULT 0 NOT NULL,
    uploaded_by uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    indexed_at timestamp with time zone,
    term_count bigint DEFAULT 0 NOT NULL,
    external_id text,
    CONSTRAINT document_source_type_check CHECK ((source_type = ANY (ARRAY['upload'::text, 'connector'::text, 'integration'::text]))),
    CONSTRAINT document_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'indexing'::text, 'indexed'::text, 'failed'::text])))
);


--
-- Name: job_progress; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_progress (
    job_id uuid NOT NULL,
    done integer DEFAULT 0 NOT NULL,
    total integer,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: lexical_analyzer; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.lexical_analyzer (
    id boolean DEFAULT true NOT NULL,
    version integer NOT NULL,
    CONSTRAINT lexical_analyzer_id_check CHECK (id)
);


--
-- Name: license_ed25519_key; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.license_ed25519_key (
    seq bigint NOT NULL,
    license_id text NOT NULL,
    license_key text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: license_ed25519_key_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.license_ed25519_key_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: license_ed25519_key_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.license_ed25519_key_seq_seq OWNED BY public.license_ed25519_key.seq;


--
-- Name: metadata_rule; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.metadata_rule (
    id uuid NOT NULL,
    source_id uuid NOT NULL,
    field_name text NOT NULL,
    pattern text NOT NULL,
    query_pattern text,
    scope text NOT NULL,
    level text NOT NULL,
    chunk_boundary boolean DEFAULT false NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT metadata_rule_level_check CHECK ((level = ANY (ARRAY['document'::text, 'chunk'::text]))),
    CONSTRAINT metadata_rule_scope_check CHECK ((scope = ANY (ARRAY['full'::text, 'header'::text, 'filename'::text])))
);


--
-- Name: metadata_rule_outcome; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.metadata_rule_outcome (
    rule_id uuid NOT NULL,
    document_id uuid NOT NULL,
    outcome text NOT NULL,
    self_chunks integer DEFAULT 0 NOT NULL,
    inherited_chunks integer DEFAULT 0 NOT NULL,
    evaluated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT metadata_rule_outcome_outcome_check CHECK ((outcome = ANY (ARRAY['won'::text, 'no_match'::text, 'shadowed'::text, 'failed'::text])))
);


--
-- Name: mfa_challenge; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mfa_challenge (
    jti uuid NOT NULL,
    user_id uuid NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone
);


--
-- Name: oidc_login_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oidc_login_state (
    state_hash text NOT NULL,
    provider_name text NOT NULL,
    code_verifier text NOT NULL,
    nonce text NOT NULL,
    return_to text,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: oidc_provider; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oidc_provider (
    id uuid NOT NULL,
    name text NOT NULL,
    display_name text NOT NULL,
    discovery_url text NOT NULL,
    client_id text NOT NULL,
    client_secret text,
    redirect_uri text NOT NULL,
    scopes text DEFAULT 'openid email profile'::text NOT NULL,
    admin_groups jsonb DEFAULT '[]'::jsonb NOT NULL,
    groups_claim text DEFAULT 'groups'::text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT oidc_provider_name_check CHECK ((name ~ '^[a-z0-9][a-z0-9-]{0,31}$'::text))
);


--
-- Name: password_reset_token; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.password_reset_token (
    token_hash text NOT NULL,
    user_id uuid NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: refresh_token; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.refresh_token (
    jti uuid NOT NULL,
    user_id uuid NOT NULL,
    family_id uuid NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: resource_access; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.resource_access (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    group_id uuid NOT NULL,
    CONSTRAINT resource_access_resource_type_check CHECK ((resource_type = ANY (ARRAY['connector'::text, 'integration'::text, 'document'::text])))
);


--
-- Name: runtime_setting; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.runtime_setting (
    key text NOT NULL,
    value jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by text
);


--
-- Name: source; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.source (
    id uuid NOT NULL,
    kind text NOT NULL,
    type text NOT NULL,
    name text NOT NULL,
    config jsonb NOT NULL,
    secrets text,
    enabled boolean DEFAULT true NOT NULL,
    cursor text,
    last_sync_at timestamp with time zone,
    last_sync_status text,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT source_kind_check CHECK ((kind = ANY (ARRAY['connector'::text, 'integration'::text])))
);


--
-- Name: sync_schedule; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_schedule (
    id uuid NOT NULL,
    source_id uuid NOT NULL,
    cron text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: term_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.term_stats (
    term text NOT NULL,
    df integer NOT NULL
);


--
-- Name: user_group; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.user_group (
    id uuid NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    builtin boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: user_group_member; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.user_group_member (
    group_id uuid NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: vector_embedding; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.vector_embedding (
    space text NOT NULL,
    dimensions integer NOT NULL,
    chunk_id text NOT NULL,
    document_id text NOT NULL,
    embedding public.vector NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vector_embedding_dimensions_match CHECK ((public.vector_dims(embedding) = dimensions))
);


--
-- Name: docqa_migrations id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.docqa_migrations ALTER COLUMN id SET DEFAULT nextval('public.docqa_migrations_id_seq'::regclass);


--
-- Name: license_ed25519_key seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.license_ed25519_key ALTER COLUMN seq SET DEFAULT nextval('public.license_ed25519_key_seq_seq'::regclass);


--
-- Data for Name: active_model; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: api_key; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: app_user; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.app_user VALUES ('3e4fb29b-be34-401a-a752-d9c094097706', 'admin', NULL, 'scrypt$32768$8$1$82w1xUfSz8Rj8kv5HgddMeEaoYRnnQNSmnsBg6Om4T0=$WEYXT9kc+pBAndLHo3qyvyNIUrDd1yU2YLqVu0XQvRoVpMR/TjDworAERC8rBddQeEiL4d9ZiddeZfxKDeoKcg==', 'admin', 0, NULL, false, NULL, '[]', NULL, NULL, '2026-11-26 18:02:56.063644+00', '2026-11-26 18:02:56.063644+00');
INSERT INTO public.app_user VALUES ('02181bd4-8852-43d9-ac72-31131df4162f', 'vera', 'vera@example.com', 'scrypt$32768$8$1$0tn+b9Y2aIPZjk5SI7u8rErdln0b1409f/mYEMo112k=$li6LNscgNexFnBV6J5+2/Wa+6CHLyCEzKajN51JVnMfl4xMSAXUfiJl1zopqAeDr5oeXyl5A68oY53jhY+JpIw==', 'viewer', 0, NULL, false, NULL, '[]', NULL, NULL, '2026-11-26 18:03:10.039349+00', '2026-11-26 18:03:10.039349+00');


--
-- Data for Name: audit_anchor; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: audit_event; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: audit_head; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: branding; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: branding_logo; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: chunk; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.chunk VALUES ('f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 0, 'Travel policy

Employees book trains for trips under four hours. Hotels are booked by the office.', '{}', 'text', 1, 1, 0, 97, 21, '{}', 11, 'en', DEFAULT);
INSERT INTO public.chunk VALUES ('f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 0, 'Zorblax-1 cooling

The cooling period of the Zorblax-1 lasts nine hours. Region: EU.', '{}', 'text', 1, 1, 0, 84, 17, '{}', 12, 'en', DEFAULT);


--
-- Data for Name: chunk_term; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.chunk_term VALUES ('travel', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('polici', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('employe', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('book', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 2, 11);
INSERT INTO public.chunk_term VALUES ('train', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('trip', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('four', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('hour', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('hotel', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('offic', 'f8ed57a2-6da4-57e2-91b6-be48b9b7fd3b', '0f6a6913-beaa-4f61-af1b-3d6ac0876782', 1, 11);
INSERT INTO public.chunk_term VALUES ('zorblax', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 2, 12);
INSERT INTO public.chunk_term VALUES ('1', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 2, 12);
INSERT INTO public.chunk_term VALUES ('cool', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 2, 12);
INSERT INTO public.chunk_term VALUES ('period', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);
INSERT INTO public.chunk_term VALUES ('last', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);
INSERT INTO public.chunk_term VALUES ('nine', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);
INSERT INTO public.chunk_term VALUES ('hour', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);
INSERT INTO public.chunk_term VALUES ('region', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);
INSERT INTO public.chunk_term VALUES ('eu', 'f6683e88-028f-5222-a42d-352547f8b15e', 'b2d05901-4549-4d68-9dd3-e77938611ba6', 1, 12);


--
-- Data for Name: conversation; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.conversation VALUES ('739b866b-89f8-41ff-8bc9-e7f0f4e882dd', '02181bd4-8852-43d9-ac72-31131df4162f', 'How long is the cooling period of the Zorblax-1?', '2026-11-26 18:03:11.960482+00', '2026-11-26 18:03:11.960482+00');


--
-- Data for Name: conversation_turn; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.conversation_turn VALUES ('6cc70427-1552-417d-910f-1c074ce88f61', '739b866b-89f8-41ff-8bc9-e7f0f4e882dd', 1, 'How long is the cooling period of the Zorblax-1?', NULL, 'Zorblax-1 cooling. The cooling period of the Zorblax-1 lasts nine hours. [1]', '[{"path": "zorblax-manual.txt", "index": 1, "score": 3.3976416286434223, "title": "zorblax-manual.txt", "chunk_id": "f6683e88-028f-5222-a42d-352547f8b15e", "metadata": {}, "document_id": "b2d05901-4549-4d68-9dd3-e77938611ba6"}]', '{"mode": "lexical", "top_k": 6, "filters": {}, "classification": {"filters": {}, "ambiguous": {}}, "rewritten_query": null}', NULL, '{"total": 293.92, "classify": 7.28, "generate": 36.06, "retrieve": 250.58}', '2026-11-26 18:03:11.960482+00');


--
-- Data for Name: docqa_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.docqa_migrations VALUES (1, 'core_0001_foundation', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (2, 'app_0001_identity', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (3, 'app_0002_oidc', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (4, 'app_0017_api_keys', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (5, 'app_0004_documents', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (6, 'app_0005_chunks', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (7, 'app_0006_lexical', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (8, 'app_0006_lexical_term_stats', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (9, 'app_0015_postings_deleted_with_their_chunks', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (10, 'app_0018_chunk_language', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (11, 'app_0007_sources', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (12, 'app_0010_conversations', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (13, 'app_0014_active_model', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (14, 'app_0013_branding', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (15, 'app_0008_metadata_rules', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (16, 'app_0009_schedules', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (17, 'app_0011_metadata_rule_outcomes', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (18, 'app_0012_audit_log', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (19, 'app_0016_audit_purge_bounds', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (20, 'app_0003_groups', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (21, 'plugin_vectorstore-pgvector_0001_vectors', '2026-11-26 18:02:51.620698+00');
INSERT INTO public.docqa_migrations VALUES (22, 'plugin_license-ed25519_0001_license_keys', '2026-11-26 18:02:51.620698+00');


--
-- Data for Name: document; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.document VALUES ('0f6a6913-beaa-4f61-af1b-3d6ac0876782', 'upload', NULL, 'travel-policy.txt', 'travel-policy.txt', 'text/plain', 97, 'f439239acb39f2fd8e745838a95775fc3d9ae4f10024a05c3194317a003284f7', 'indexed', NULL, 'a67cf59c-bd78-4219-bd32-a89d3d9ba058', NULL, '{}', 1, '3e4fb29b-be34-401a-a752-d9c094097706', '2026-11-26 18:03:10.086049+00', '2026-11-26 18:03:10.678268+00', '2026-11-26 18:03:10.678268+00', 11, NULL);
INSERT INTO public.document VALUES ('b2d05901-4549-4d68-9dd3-e77938611ba6', 'upload', NULL, 'zorblax-manual.txt', 'zorblax-manual.txt', 'text/plain', 84, '2a213bf0f3a3a5bfce950f531c2eef63d4d5efa3827de45650071bf2e23a6bba', 'indexed', NULL, '8004a11b-2fb8-4f6f-9620-6b857019d951', NULL, '{}', 1, '3e4fb29b-be34-401a-a752-d9c094097706', '2026-11-26 18:03:10.086049+00', '2026-11-26 18:03:10.928775+00', '2026-11-26 18:03:10.928775+00', 12, NULL);


--
-- Data for Name: job_progress; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.job_progress VALUES ('432fa656-3e9c-4ab9-ad91-8a0af10b52e0', 0, 0, '2026-11-26 18:02:57.423844+00');
INSERT INTO public.job_progress VALUES ('a67cf59c-bd78-4219-bd32-a89d3d9ba058', 1, 1, '2026-11-26 18:03:10.82127+00');
INSERT INTO public.job_progress VALUES ('8004a11b-2fb8-4f6f-9620-6b857019d951', 1, 1, '2026-11-26 18:03:11.013471+00');


--
-- Data for Name: lexical_analyzer; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.lexical_analyzer VALUES (true, 2);


--
-- Data for Name: license_ed25519_key; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: metadata_rule; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: metadata_rule_outcome; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: mfa_challenge; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: oidc_login_state; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: oidc_provider; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: password_reset_token; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: refresh_token; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.refresh_token VALUES ('c6f142e0-d5b1-4f85-9a38-f0909c1d76a6', '3e4fb29b-be34-401a-a752-d9c094097706', 'af59e48c-4104-4d0c-a626-5414d9d6db2d', '2026-12-03 18:03:08.751+00', NULL, NULL, '2026-11-26 18:03:08.756706+00');
INSERT INTO public.refresh_token VALUES ('df9fada4-c539-4255-9c5a-76770ca70c8c', '02181bd4-8852-43d9-ac72-31131df4162f', '709c586f-6c84-47b6-9533-32f70c56f290', '2026-12-03 18:03:11.597+00', NULL, NULL, '2026-11-26 18:03:11.60077+00');


--
-- Data for Name: resource_access; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: runtime_setting; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.runtime_setting VALUES ('LOG_LEVEL', '"INFO"', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_LOG_ANONYMISE', 'true', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_LOG_TOKEN_USAGE', 'false', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_MIN_CHUNK_LENGTH', '1', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_LOG_REDACT_QUERIES', 'true', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_AUDIT_RETENTION_DAYS', '365', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('INFERENCE_TIMEOUT_SECONDS', '120', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_QUERY_REWRITE_ENABLED', 'false', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_CONVERSATION_MAX_TURNS', '100', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('ACCESS_TOKEN_EXPIRE_SECONDS', '900', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_QUERY_REWRITE_MAX_TURNS', '3', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('REFRESH_TOKEN_EXPIRE_SECONDS', '604800', '2026-11-26 18:02:53.890395+00', 'seed');
INSERT INTO public.runtime_setting VALUES ('RAG_CONVERSATION_MAX_AGE_DAYS', '90', '2026-11-26 18:02:53.890395+00', 'seed');


--
-- Data for Name: source; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: sync_schedule; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: term_stats; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.term_stats VALUES ('book', 1);
INSERT INTO public.term_stats VALUES ('employe', 1);
INSERT INTO public.term_stats VALUES ('four', 1);
INSERT INTO public.term_stats VALUES ('hotel', 1);
INSERT INTO public.term_stats VALUES ('offic', 1);
INSERT INTO public.term_stats VALUES ('polici', 1);
INSERT INTO public.term_stats VALUES ('train', 1);
INSERT INTO public.term_stats VALUES ('travel', 1);
INSERT INTO public.term_stats VALUES ('trip', 1);
INSERT INTO public.term_stats VALUES ('1', 1);
INSERT INTO public.term_stats VALUES ('cool', 1);
INSERT INTO public.term_stats VALUES ('eu', 1);
INSERT INTO public.term_stats VALUES ('hour', 2);
INSERT INTO public.term_stats VALUES ('last', 1);
INSERT INTO public.term_stats VALUES ('nine', 1);
INSERT INTO public.term_stats VALUES ('period', 1);
INSERT INTO public.term_stats VALUES ('region', 1);
INSERT INTO public.term_stats VALUES ('zorblax', 1);


--
-- Data for Name: user_group; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.user_group VALUES ('00000000-0000-4000-8000-000000000001', 'everyone', 'Every signed-in user.', true, '2026-11-26 18:02:51.620698+00', '2026-11-26 18:02:51.620698+00');


--
-- Data for Name: user_group_member; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: vector_embedding; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: audit_event_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.audit_event_seq_seq', 1, false);


--
-- Name: docqa_migrations_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.docqa_migrations_id_seq', 22, true);


--
-- Name: license_ed25519_key_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.license_ed25519_key_seq_seq', 1, false);


--
-- Name: active_model active_model_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.active_model
    ADD CONSTRAINT active_model_pkey PRIMARY KEY (purpose);


--
-- Name: api_key api_key_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT api_key_key_hash_key UNIQUE (key_hash);


--
-- Name: api_key api_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT api_key_pkey PRIMARY KEY (id);


--
-- Name: app_user app_user_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.app_user
    ADD CONSTRAINT app_user_pkey PRIMARY KEY (id);


--
-- Name: audit_anchor audit_anchor_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_anchor
    ADD CONSTRAINT audit_anchor_pkey PRIMARY KEY (singleton);


--
-- Name: audit_event audit_event_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_event
    ADD CONSTRAINT audit_event_id_key UNIQUE (id);


--
-- Name: audit_event audit_event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_event
    ADD CONSTRAINT audit_event_pkey PRIMARY KEY (seq);


--
-- Name: audit_head audit_head_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_head
    ADD CONSTRAINT audit_head_pkey PRIMARY KEY (singleton);


--
-- Name: branding_logo branding_logo_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.branding_logo
    ADD CONSTRAINT branding_logo_pkey PRIMARY KEY (singleton);


--
-- Name: branding branding_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.branding
    ADD CONSTRAINT branding_pkey PRIMARY KEY (singleton);


--
-- Name: chunk chunk_document_id_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk
    ADD CONSTRAINT chunk_document_id_position_key UNIQUE (document_id, "position");


--
-- Name: chunk chunk_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk
    ADD CONSTRAINT chunk_pkey PRIMARY KEY (id);


--
-- Name: chunk_term chunk_term_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk_term
    ADD CONSTRAINT chunk_term_pkey PRIMARY KEY (term, chunk_id) INCLUDE (document_id, tf, chunk_length);


--
-- Name: conversation conversation_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversation
    ADD CONSTRAINT conversation_pkey PRIMARY KEY (id);


--
-- Name: conversation_turn conversation_turn_conversation_id_position_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversation_turn
    ADD CONSTRAINT conversation_turn_conversation_id_position_key UNIQUE (conversation_id, "position");


--
-- Name: conversation_turn conversation_turn_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversation_turn
    ADD CONSTRAINT conversation_turn_pkey PRIMARY KEY (id);


--
-- Name: docqa_migrations docqa_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.docqa_migrations
    ADD CONSTRAINT docqa_migrations_pkey PRIMARY KEY (id);


--
-- Name: document document_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.document
    ADD CONSTRAINT document_pkey PRIMARY KEY (id);


--
-- Name: job_progress job_progress_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_progress
    ADD CONSTRAINT job_progress_pkey PRIMARY KEY (job_id);


--
-- Name: lexical_analyzer lexical_analyzer_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.lexical_analyzer
    ADD CONSTRAINT lexical_analyzer_pkey PRIMARY KEY (id);


--
-- Name: license_ed25519_key license_ed25519_key_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.license_ed25519_key
    ADD CONSTRAINT license_ed25519_key_pkey PRIMARY KEY (seq);


--
-- Name: metadata_rule_outcome metadata_rule_outcome_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metadata_rule_outcome
    ADD CONSTRAINT metadata_rule_outcome_pkey PRIMARY KEY (rule_id, document_id);


--
-- Name: metadata_rule metadata_rule_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metadata_rule
    ADD CONSTRAINT metadata_rule_pkey PRIMARY KEY (id);


--
-- Name: mfa_challenge mfa_challenge_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_challenge
    ADD CONSTRAINT mfa_challenge_pkey PRIMARY KEY (jti);


--
-- Name: oidc_login_state oidc_login_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oidc_login_state
    ADD CONSTRAINT oidc_login_state_pkey PRIMARY KEY (state_hash);


--
-- Name: oidc_provider oidc_provider_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oidc_provider
    ADD CONSTRAINT oidc_provider_name_key UNIQUE (name);


--
-- Name: oidc_provider oidc_provider_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oidc_provider
    ADD CONSTRAINT oidc_provider_pkey PRIMARY KEY (id);


--
-- Name: password_reset_token password_reset_token_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.password_reset_token
    ADD CONSTRAINT password_reset_token_pkey PRIMARY KEY (token_hash);


--
-- Name: refresh_token refresh_token_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refresh_token
    ADD CONSTRAINT refresh_token_pkey PRIMARY KEY (jti);


--
-- Name: resource_access resource_access_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.resource_access
    ADD CONSTRAINT resource_access_pkey PRIMARY KEY (resource_type, resource_id, group_id);


--
-- Name: runtime_setting runtime_setting_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.runtime_setting
    ADD CONSTRAINT runtime_setting_pkey PRIMARY KEY (key);


--
-- Name: source source_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.source
    ADD CONSTRAINT source_pkey PRIMARY KEY (id);


--
-- Name: sync_schedule sync_schedule_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_schedule
    ADD CONSTRAINT sync_schedule_pkey PRIMARY KEY (id);


--
-- Name: term_stats term_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.term_stats
    ADD CONSTRAINT term_stats_pkey PRIMARY KEY (term);


--
-- Name: user_group_member user_group_member_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_group_member
    ADD CONSTRAINT user_group_member_pkey PRIMARY KEY (group_id, user_id);


--
-- Name: user_group user_group_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_group
    ADD CONSTRAINT user_group_pkey PRIMARY KEY (id);


--
-- Name: vector_embedding vector_embedding_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.vector_embedding
    ADD CONSTRAINT vector_embedding_pkey PRIMARY KEY (space, chunk_id);


--
-- Name: api_key_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_key_user ON public.api_key USING btree (user_id);


--
-- Name: app_user_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX app_user_email_key ON public.app_user USING btree (lower(email)) WHERE (email IS NOT NULL);


--
-- Name: app_user_sso_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX app_user_sso_key ON public.app_user USING btree (sso_provider, sso_subject) WHERE (sso_provider IS NOT NULL);


--
-- Name: app_user_username_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX app_user_username_key ON public.app_user USING btree (lower(username));


--
-- Name: audit_event_actor_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_event_actor_time ON public.audit_event USING btree (actor_id, occurred_at DESC);


--
-- Name: audit_event_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_event_time ON public.audit_event USING btree (occurred_at DESC);


--
-- Name: audit_event_type_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_event_type_time ON public.audit_event USING btree (type, occurred_at DESC);


--
-- Name: chunk_document_text_length; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_document_text_length ON public.chunk USING btree (document_id) INCLUDE (text_length);


--
-- Name: chunk_empty_metadata; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_empty_metadata ON public.chunk USING btree (document_id) WHERE (metadata = '{}'::jsonb);


--
-- Name: chunk_language; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_language ON public.chunk USING btree (language);


--
-- Name: chunk_term_chunk; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunk_term_chunk ON public.chunk_term USING btree (chunk_id);


--
-- Name: conversation_updated; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX conversation_updated ON public.conversation USING btree (updated_at);


--
-- Name: conversation_user_recent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX conversation_user_recent ON public.conversation USING btree (user_id, updated_at DESC);


--
-- Name: document_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX document_created ON public.document USING btree (created_at DESC);


--
-- Name: document_source_external; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX document_source_external ON public.document USING btree (source_type, source_id, external_id) WHERE (external_id IS NOT NULL);


--
-- Name: document_source_path; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX document_source_path ON public.document USING btree (source_type, source_id, path);


--
-- Name: document_upload_content; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX document_upload_content ON public.document USING btree (content_hash) WHERE (source_type = 'upload'::text);


--
-- Name: metadata_rule_outcome_document; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX metadata_rule_outcome_document ON public.metadata_rule_outcome USING btree (document_id);


--
-- Name: metadata_rule_source; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX metadata_rule_source ON public.metadata_rule USING btree (source_id);


--
-- Name: oidc_login_state_expires; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oidc_login_state_expires ON public.oidc_login_state USING btree (expires_at);


--
-- Name: refresh_token_family; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_token_family ON public.refresh_token USING btree (family_id);


--
-- Name: refresh_token_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_token_user ON public.refresh_token USING btree (user_id);


--
-- Name: resource_access_group; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX resource_access_group ON public.resource_access USING btree (group_id);


--
-- Name: source_name_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX source_name_key ON public.source USING btree (kind, lower(name));


--
-- Name: user_group_member_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX user_group_member_user ON public.user_group_member USING btree (user_id);


--
-- Name: user_group_name_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX user_group_name_key ON public.user_group USING btree (lower(name));


--
-- Name: vector_embedding_document_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX vector_embedding_document_id_idx ON public.vector_embedding USING btree (document_id);


--
-- Name: audit_anchor audit_anchor_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_anchor_guard BEFORE INSERT OR DELETE OR UPDATE ON public.audit_anchor FOR EACH ROW EXECUTE FUNCTION public.audit_anchor_forward_only();


--
-- Name: audit_event audit_event_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_event_append_only BEFORE DELETE OR UPDATE ON public.audit_event FOR EACH ROW EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: audit_event audit_event_head; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_event_head AFTER INSERT ON public.audit_event FOR EACH ROW EXECUTE FUNCTION public.audit_head_follow();


--
-- Name: audit_event audit_event_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON public.audit_event FOR EACH STATEMENT EXECUTE FUNCTION public.audit_refuse_change();


--
-- Name: audit_head audit_head_guard; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER audit_head_guard BEFORE INSERT OR DELETE OR UPDATE ON public.audit_head FOR EACH ROW EXECUTE FUNCTION public.audit_head_guard();


--
-- Name: chunk chunk_delete_postings; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunk_delete_postings AFTER DELETE ON public.chunk REFERENCING OLD TABLE AS removed_chunks FOR EACH STATEMENT EXECUTE FUNCTION public.chunk_delete_postings();


--
-- Name: chunk_term chunk_term_stats_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunk_term_stats_delete AFTER DELETE ON public.chunk_term REFERENCING OLD TABLE AS changed_postings FOR EACH STATEMENT EXECUTE FUNCTION public.term_stats_postings();


--
-- Name: chunk_term chunk_term_stats_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunk_term_stats_insert AFTER INSERT ON public.chunk_term REFERENCING NEW TABLE AS changed_postings FOR EACH STATEMENT EXECUTE FUNCTION public.term_stats_postings();


--
-- Name: document document_delete_chunks; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER document_delete_chunks BEFORE DELETE ON public.document FOR EACH ROW EXECUTE FUNCTION public.document_delete_chunks();


--
-- Name: document document_term_stats_status; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER document_term_stats_status AFTER UPDATE OF status ON public.document FOR EACH ROW WHEN (((old.status = 'indexed'::text) IS DISTINCT FROM (new.status = 'indexed'::text))) EXECUTE FUNCTION public.term_stats_document_status();


--
-- Name: api_key api_key_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT api_key_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- Name: chunk chunk_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunk
    ADD CONSTRAINT chunk_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.document(id) ON DELETE CASCADE;


--
-- Name: conversation_turn conversation_turn_conversation_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversation_turn
    ADD CONSTRAINT conversation_turn_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES public.conversation(id) ON DELETE CASCADE;


--
-- Name: conversation conversation_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.conversation
    ADD CONSTRAINT conversation_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- Name: document document_uploaded_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.document
    ADD CONSTRAINT document_uploaded_by_fkey FOREIGN KEY (uploaded_by) REFERENCES public.app_user(id) ON DELETE SET NULL;


--
-- Name: metadata_rule_outcome metadata_rule_outcome_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metadata_rule_outcome
    ADD CONSTRAINT metadata_rule_outcome_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.document(id) ON DELETE CASCADE;


--
-- Name: metadata_rule_outcome metadata_rule_outcome_rule_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metadata_rule_outcome
    ADD CONSTRAINT metadata_rule_outcome_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES public.metadata_rule(id) ON DELETE CASCADE;


--
-- Name: metadata_rule metadata_rule_source_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.metadata_rule
    ADD CONSTRAINT metadata_rule_source_id_fkey FOREIGN KEY (source_id) REFERENCES public.source(id) ON DELETE CASCADE;


--
-- Name: mfa_challenge mfa_challenge_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_challenge
    ADD CONSTRAINT mfa_challenge_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- Name: password_reset_token password_reset_token_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.password_reset_token
    ADD CONSTRAINT password_reset_token_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- Name: refresh_token refresh_token_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refresh_token
    ADD CONSTRAINT refresh_token_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- Name: resource_access resource_access_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.resource_access
    ADD CONSTRAINT resource_access_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.user_group(id) ON DELETE CASCADE;


--
-- Name: sync_schedule sync_schedule_source_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_schedule
    ADD CONSTRAINT sync_schedule_source_id_fkey FOREIGN KEY (source_id) REFERENCES public.source(id) ON DELETE CASCADE;


--
-- Name: user_group_member user_group_member_group_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_group_member
    ADD CONSTRAINT user_group_member_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.user_group(id) ON DELETE CASCADE;


--
-- Name: user_group_member user_group_member_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_group_member
    ADD CONSTRAINT user_group_member_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.app_user(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


